import type { EnvelopeItem } from "../../envelope/index";
import { scrubCheckIn } from "../../normalize/scrub-items";
import { num, obj, readJson, str } from "../read";
import { capJson, outcome, type Stage, type StageContext } from "../stage";

/** Cron monitor check-ins (https://develop.sentry.dev/sdk/telemetry/check-ins/). */
export const checkInsStage: Stage = {
  name: "check_ins",
  run(c: StageContext, item: EnvelopeItem): void {
    const raw = readJson(item.payload);
    const checkInId = obj(raw) ? str(raw.check_in_id) : undefined;
    const slug = obj(raw) ? str(raw.monitor_slug) : undefined;
    if (!obj(raw) || !checkInId || !slug) return outcome(c, "monitor", "invalid", "invalid_check_in");
    scrubCheckIn(raw, c.options.scrubbing);
    c.records.checkIns.push({
      projectId: c.projectId,
      checkInId: checkInId.slice(0, 64),
      monitorSlug: slug.slice(0, 128),
      status: (str(raw.status) ?? "unknown").slice(0, 32),
      duration: num(raw.duration) ?? null,
      environment: str(raw.environment)?.slice(0, 64) ?? null,
      receivedAt: c.receivedAt,
      data: capJson(raw),
    });
    outcome(c, "monitor", "accepted", "");
  },
};
