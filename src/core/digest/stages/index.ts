import { ITEM_CATEGORIES, type EnvelopeItem, type ItemType } from "../../envelope/index";
import { MAX_JSON_DEPTH, nestsDeeperThan } from "../read";
import { claimedItems, outcome, type Stage, type StageContext } from "../stage";
import { attachmentsStage } from "./attachments";
import { checkInsStage } from "./check-ins";
import { clientReportsStage } from "./client-reports";
import { errorsStage } from "./errors";
import { feedbackStage, userReportStage } from "./feedback";
import { logsStage } from "./logs";
import { rawStage } from "./raw";
import { sessionStage, sessionsStage } from "./sessions";
import { spansStage, transactionsStage } from "./transactions";

/**
 * Which stage digests which item type. Types the digest parses are listed by name; every
 * other type is kept as bytes (`rawStage`) under its data category and never walked.
 */
const STAGES: Partial<Record<ItemType, Stage>> = {
  event: errorsStage,
  transaction: transactionsStage,
  span: spansStage,
  session: sessionStage,
  sessions: sessionsStage,
  log: logsStage,
  check_in: checkInsStage,
  feedback: feedbackStage,
  user_report: userReportStage,
  attachment: attachmentsStage,
  client_report: clientReportsStage,
  profile: rawStage("profile"),
  profile_chunk: rawStage("profile"),
  replay_event: rawStage("replay"),
  replay_recording: rawStage("replay"),
  replay_video: rawStage("replay"),
  statsd: rawStage("metric_bucket"),
  metric_buckets: rawStage("metric_bucket"),
};
const UNKNOWN_TYPE = rawStage("unknown");
const rawByCategory = new Map<string | null, Stage>();

/** The stage for an item type (null: a type the envelope parser does not know). */
export function stageFor(type: ItemType | null): Stage {
  if (type === null) return UNKNOWN_TYPE;
  const stage = STAGES[type];
  if (stage) return stage;
  const category = ITEM_CATEGORIES[type];
  let raw = rawByCategory.get(category);
  if (!raw) rawByCategory.set(category, (raw = rawStage(category)));
  return raw;
}

/** Stages that parse and walk their payload; the others keep it as bytes, so its nesting cannot hurt. */
const READS_JSON: ReadonlySet<Stage> = new Set([
  errorsStage,
  transactionsStage,
  spansStage,
  sessionStage,
  sessionsStage,
  logsStage,
  checkInsStage,
  feedbackStage,
  userReportStage,
  clientReportsStage,
]);

/** Digests one item with its stage. */
export function digestItem(c: StageContext, item: EnvelopeItem): void {
  const type = item.header.knownType;
  const stage = stageFor(type);
  // Before any parse or walk: one item nested thousands deep would overflow the stack.
  if (READS_JSON.has(stage) && nestsDeeperThan(item.payload, MAX_JSON_DEPTH)) {
    return outcome(c, (type && ITEM_CATEGORIES[type]) ?? "default", "invalid", "too_deep", claimedItems(item));
  }
  stage.run(c, item);
}
