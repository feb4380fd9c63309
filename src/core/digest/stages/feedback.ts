import type { EnvelopeItem } from "../../envelope/index";
import { scrubUserReport } from "../../normalize/scrub-items";
import type { NormalizedEvent } from "../../normalize/types";
import { obj, readJson, str } from "../read";
import { capJson, normalizeItem, outcome, type Stage, type StageContext } from "../stage";

/** Feedback sent as an event (`feedback` item, or an error event with `contexts.feedback`). */
export function feedbackFromEvent(c: StageContext, event: NormalizedEvent): void {
  const fb = event.contexts?.feedback ?? {};
  c.records.feedback.push({
    projectId: c.projectId,
    eventId: str(fb.associated_event_id) ?? event.event_id,
    name: (str(fb.name) ?? event.user?.username ?? "").slice(0, 128),
    email: (str(fb.contact_email) ?? event.user?.email ?? "").slice(0, 128),
    comments: (str(fb.message) ?? "").slice(0, 4096),
    receivedAt: c.receivedAt,
    data: JSON.stringify(event),
  });
  outcome(c, "feedback", "accepted", "");
}

/** The `feedback` item (user feedback widget, SDKs from 8.x). */
export const feedbackStage: Stage = {
  name: "feedback",
  run(c: StageContext, item: EnvelopeItem): void {
    const raw = readJson(item.payload);
    if (!obj(raw)) return outcome(c, "feedback", "invalid", "invalid_json");
    const event = normalizeItem(c, raw, "feedback");
    if (event) feedbackFromEvent(c, event);
  },
};

/** The older `user_report` item: `{event_id, name, email, comments}`. */
export const userReportStage: Stage = {
  name: "user_report",
  run(c: StageContext, item: EnvelopeItem): void {
    const raw = readJson(item.payload);
    if (!obj(raw)) return outcome(c, "feedback", "invalid", "invalid_json");
    scrubUserReport(raw, c.options.scrubbing);
    c.records.feedback.push({
      projectId: c.projectId,
      eventId: str(raw.event_id)?.replaceAll("-", "").toLowerCase().slice(0, 32) ?? null,
      name: (str(raw.name) ?? "").slice(0, 128),
      email: (str(raw.email) ?? "").slice(0, 128),
      comments: (str(raw.comments) ?? "").slice(0, 4096),
      receivedAt: c.receivedAt,
      data: capJson(raw),
    });
    outcome(c, "feedback", "accepted", "");
  },
};
