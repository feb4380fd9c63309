import { sendDueNotifications } from "../core/alerts/send";
import type { Ctx } from "../core/context";
import { driveInProcessConsumers } from "../core/outbox/in-process";
import { log } from "./log";
import { runMetricAlerts } from "../core/metric-alerts/run";

/** How often the web UI thread looks for due alert notifications (two small reads when there are none). */
export const ALERT_TICK_MS = 1000;

/**
 * The alert sender's loop (docs/decisions/0017-alert-delivery.md), in the thread that serves the
 * web UI and API: never in the request path of ingest (the main thread) nor in the digest's loop.
 * Each tick catches the outbox consumers up (the digest drives them after each batch
 * too; this covers changes another process made) and sends what is due. One tick at a time.
 */
export function startAlertLoop(ctx: Ctx, everyMs = ALERT_TICK_MS): { stop(): Promise<void> } {
  let running: Promise<void> | null = null;
  let stopped = false;
  const metric = { prunedAt: 0 };
  const tick = async () => {
    try {
      // Every in-process consumer, the activity log's too: a triage action's own drive can fail
      // (a busy database) and the digest only drives after a batch, so without this an action's
      // activity entry could wait for the next event.
      await driveInProcessConsumers(ctx);
      const { sent, failed, notSent } = await sendDueNotifications(ctx);
      if (sent + failed + notSent > 0) log("info", "alert notifications", { sent, failed, notSent });
    } catch (error) {
      log("error", "alert loop failed", { error: error instanceof Error ? error.message : String(error) });
    }
    // Metric alerts (decision 0020): evaluated when due, once a minute per rule; failing apart from issue alerts.
    try {
      const { evaluated, sent, failed, notSent } = await runMetricAlerts(ctx, metric);
      if (sent + failed + notSent > 0) log("info", "metric alert notifications", { evaluated, sent, failed, notSent });
    } catch (error) {
      log("error", "metric alerts failed", { error: error instanceof Error ? error.message : String(error) });
    }
  };
  const timer = setInterval(() => {
    if (running || stopped) return;
    running = tick().finally(() => (running = null));
  }, everyMs);
  timer.unref();
  return {
    async stop() {
      stopped = true;
      clearInterval(timer);
      await running;
    },
  };
}
