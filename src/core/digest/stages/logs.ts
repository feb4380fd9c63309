import type { EnvelopeItem } from "../../envelope/index";
import { scrubLog } from "../../normalize/scrub-items";
import { boundedSeconds } from "../../normalize/timestamps";
import { obj, readJson, str } from "../read";
import { capJson, claimedItems, outcome, type Stage, type StageContext } from "../stage";

/** Logs stored from one container; the rest are counted `too_many_logs`. */
export const MAX_LOGS_PER_ITEM = 1000;

/** Log containers (`log` items, `application/vnd.sentry.items.log+json`). */
export const logsStage: Stage = {
  name: "logs",
  run(c: StageContext, item: EnvelopeItem): void {
    const raw = readJson(item.payload);
    const all = obj(raw) && Array.isArray(raw.items) ? raw.items : null;
    if (!all) return outcome(c, "log_item", "invalid", "invalid_log_container", claimedItems(item));
    const items = all.length > MAX_LOGS_PER_ITEM ? all.slice(0, MAX_LOGS_PER_ITEM) : all;
    let accepted = 0;
    for (const log of items) {
      if (!obj(log)) continue;
      scrubLog(log, c.options.scrubbing);
      c.records.logs.push({
        projectId: c.projectId,
        timestamp: boundedSeconds(log.timestamp, c.receivedAt / 1000),
        level: (str(log.level) ?? "info").slice(0, 16),
        body: (str(log.body) ?? "").slice(0, 8192),
        traceId: str(log.trace_id)?.slice(0, 32) ?? null,
        attributes: capJson(log.attributes ?? {}),
      });
      accepted++;
    }
    outcome(c, "log_item", "accepted", "", accepted);
    outcome(c, "log_item", "invalid", "invalid_log", items.length - accepted);
    outcome(c, "log_item", "invalid", "too_many_logs", all.length - items.length);
  },
};
