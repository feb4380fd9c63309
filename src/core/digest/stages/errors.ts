import type { EnvelopeItem } from "../../envelope/index";
import { runInboundFilters } from "../../filter/index";
import { deriveIssueFields, groupForProject } from "../../grouping/index";
import { eventFacts } from "../../issues/event-tags";
import type { NormalizedEvent } from "../../normalize/types";
import { encodePayload } from "../../storage/payload";
import { obj, readJson } from "../read";
import { normalizeItem, outcome, type Stage, type StageContext } from "../stage";
import { feedbackFromEvent } from "./feedback";

/** Groups an (enriched) event and records it for the issue step. */
function group(c: StageContext, event: NormalizedEvent): void {
  const { result: grouping, secondaryHashes } = groupForProject(event, c.options.grouping, c.rules, c.receivedAt);
  const issue = deriveIssueFields(event, grouping);
  c.records.events.push({
    projectId: c.projectId,
    eventId: event.event_id,
    receivedAt: c.receivedAt,
    facts: eventFacts(event),
    hashes: grouping.hashes,
    secondaryHashes,
    config: grouping.config,
    issue,
    payload: encodePayload(JSON.stringify(event)),
    issueId: null,
  });
  outcome(c, "error", "accepted", "");
}

/**
 * Error and message events. The inbound filters read the payload as sent, so they run first
 * and a filtered event costs no normalization; then normalize, enrich, group.
 */
export const errorsStage: Stage = {
  name: "errors",
  run(c: StageContext, item: EnvelopeItem): void {
    const raw = readJson(item.payload);
    if (!obj(raw)) return outcome(c, "error", "invalid", "invalid_json");
    const filtered = runInboundFilters(raw, c.options.filters);
    if (filtered) return outcome(c, "error", "filtered", filtered);
    const event = normalizeItem(c, raw, "error");
    if (!event) return;
    if (event.contexts?.feedback) return feedbackFromEvent(c, event);
    c.enrich(event, (enriched) => group(c, enriched));
  },
};
