import type { DataCategory } from "../../envelope/index";
import type { EnvelopeItem } from "../../envelope/index";
import { num, obj, readJson, str } from "../read";
import { outcome, type Stage, type StageContext } from "../stage";

/** Entries per list merged as sent; past it they are summed per known category (rows stay bounded). */
export const MAX_CLIENT_REPORT_ENTRIES = 100;
const LISTS = ["discarded_events", "rate_limited_events", "filtered_events", "filtered_sampling_events"] as const;
const KNOWN: ReadonlySet<string> = new Set<DataCategory>([
  "error",
  "transaction",
  "security",
  "attachment",
  "attachment_item",
  "session",
  "feedback",
  "profile",
  "profile_chunk",
  "profile_chunk_ui",
  "replay",
  "monitor",
  "span",
  "log_item",
  "log_byte",
  "trace_metric",
]);

/**
 * The SDK's own account of what it dropped, merged into outcomes as `client_discard`
 * (https://develop.sentry.dev/sdk/telemetry/client-reports/). A client report is not data of
 * its own, so it has no category; what it says is never lost: entries past the cap are
 * summed by category (`unknown` for a category Telltale does not know) with reason
 * `over_entry_cap`, and an unreadable report or entry is counted `invalid` in category `internal`.
 */
export const clientReportsStage: Stage = {
  name: "client_reports",
  run(c: StageContext, item: EnvelopeItem): void {
    const raw = readJson(item.payload);
    if (!obj(raw)) return outcome(c, "internal", "invalid", "invalid_client_report");
    let unreadable = 0;
    for (const key of LISTS) {
      const list = raw[key];
      if (list === undefined) continue;
      if (!Array.isArray(list)) {
        unreadable++;
        continue;
      }
      const overCap = new Map<string, number>();
      for (const [i, entry] of list.entries()) {
        const quantity = obj(entry) ? Math.floor(num(entry.quantity) ?? 0) : 0;
        const category = obj(entry) ? str(entry.category) : undefined;
        if (!obj(entry) || !category || quantity <= 0 || quantity > 1e9) {
          unreadable++;
          continue;
        }
        if (i < MAX_CLIENT_REPORT_ENTRIES)
          outcome(c, category.slice(0, 32), "client_discard", (str(entry.reason) ?? key).slice(0, 64), quantity);
        else {
          const known = KNOWN.has(category) ? category : "unknown";
          overCap.set(known, (overCap.get(known) ?? 0) + quantity);
        }
      }
      for (const [category, quantity] of overCap) outcome(c, category, "client_discard", "over_entry_cap", quantity);
    }
    outcome(c, "internal", "invalid", "invalid_client_report_entry", unreadable);
  },
};
