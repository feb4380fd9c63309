/**
 * The outbox consumers every Telltale process drives itself, right after it commits changes (so
 * the issue page shows a triage action's activity as soon as the action returns) and after each
 * digest batch. On PostgreSQL a consumer held by another process is skipped here and taken up by
 * that process or the next drive; nothing is lost either way, as positions only move with
 * their effects.
 */
import type { Ctx } from "../context";
import { activityConsumer } from "../issues/activity";
import { alertConsumer } from "../alerts/consumer";
import { workflowConsumer } from "../workflow/consumer";
import { consumeAll, type OutboxConsumer } from "./consume";

/**
 * Alerts are here too: the consumer only writes notification rows (a few reads per change, in
 * its own transaction); email leaves from the sender's loop, never from here (decision 0017).
 */
export const IN_PROCESS_CONSUMERS: readonly OutboxConsumer[] = [activityConsumer, alertConsumer, workflowConsumer];

/** Runs each in-process consumer that is behind the outbox until it catches up; two small reads when none is. */
export async function driveInProcessConsumers(ctx: Ctx, consumers: readonly OutboxConsumer[] = IN_PROCESS_CONSUMERS): Promise<number> {
  const head = await ctx.outbox.head();
  if (head === 0) return 0;
  const at = await ctx.outbox.positions(consumers.map((c) => c.name));
  let taken = 0;
  for (const consumer of consumers) if ((at.get(consumer.name) ?? 0) < head) taken += await consumeAll(ctx, consumer);
  return taken;
}
