import type { IssueFields } from "../grouping/index";
import type { EventFacts } from "../issues/event-tags";

/**
 * What the digest's stages produce: plain, typed records, one kind per thing stored. They
 * say what happened, not how a table spells it; a TelemetryStore (src/core/ports/telemetry.ts)
 * decides the rows. Times are as the protocol gives them: event and span times in seconds
 * (float), `receivedAt` and `hour` in milliseconds.
 */

/** An error or message event, grouped: the issue step finds its issue by `hashes`. */
export interface EventRecord {
  projectId: number;
  eventId: string;
  receivedAt: number;
  /** What the issue step and the event's row read; the event itself is `payload`. */
  facts: EventFacts;
  /** The event's hashes, primary first; an issue is found by any of them. */
  hashes: string[];
  /** During a grouping upgrade's transition, the previous version's hashes: they find old issues, never make new ones. */
  secondaryHashes: string[];
  /** The grouping strategy version that computed them. */
  config: string;
  issue: IssueFields;
  /**
   * The event as stored: its JSON compressed (src/core/storage/payload.ts), made by the stage
   * that grouped it, so that writing a batch does no work its settling could do.
   */
  payload: Uint8Array;
  /** Filled in by the issue step before the event is written; null until then. */
  issueId: number | null;
}

export interface TransactionRecord {
  projectId: number;
  eventId: string;
  traceId: string;
  spanId: string;
  name: string;
  op: string;
  status: string;
  startTimestamp: number;
  timestamp: number;
  receivedAt: number;
  /**
   * What it came as: a transaction event, counted in `transaction` and its spans in `span`, or a
   * span v2 segment span, counted in `span` only (src/core/digest/stages/transactions.ts).
   */
  kind: "event" | "segment";
  /**
   * The span records it brought, the very objects that are also in the batch's `spans`: a
   * resent transaction (src/core/digest/duplicates.ts) is dropped with them. They were counted
   * in `span` at the transaction's `receivedAt`. A settle thread's answer is a structured clone,
   * which keeps one object referred to twice one object.
   */
  spans: SpanRecord[];
  /**
   * The transaction as stored for its page, without its spans (they are span records): its JSON
   * compressed (src/core/storage/payload.ts) by the stage, as an event's payload is.
   */
  payload: Uint8Array;
}

export interface SpanRecord {
  projectId: number;
  traceId: string;
  spanId: string;
  parentSpanId: string | null;
  segmentId: string | null;
  name: string;
  op: string;
  status: string;
  startTimestamp: number;
  timestamp: number;
  /** Attributes and tags: JSON text, bounded. */
  data: string;
}

export interface LogRecord {
  projectId: number;
  timestamp: number;
  level: string;
  body: string;
  traceId: string | null;
  /** The log's attributes: JSON text, bounded. */
  attributes: string;
}

/** Sessions are stored as counts per hour, release, environment and status. */
export interface SessionCountRecord {
  projectId: number;
  hour: number;
  release: string;
  environment: string;
  status: string;
  quantity: number;
}

/**
 * A member of a release-health bucket: a user (a hash of the session's `did`, per UTC day) or a
 * session that reported errors (a hash of its `sid`, per started hour), with the worst status
 * this update gives it (HEALTH_RANK). Stored once per bucket, keeping the worst status seen, so
 * that a user or session is counted once however many updates name it.
 */
export interface SessionMemberRecord {
  projectId: number;
  kind: "user" | "session";
  /** Start of the bucket (ms): the UTC day for users, the started hour for sessions. */
  bucket: number;
  release: string;
  environment: string;
  member: string;
  worst: number;
}

/**
 * Worst statuses, in order: a member keeps the highest it had. `unhandled` is what browser SDKs
 * (11+) send for an error that reached the global handler: not a crash, worse than a handled one.
 */
export const HEALTH_RANK = { ok: 0, errored: 1, unhandled: 2, abnormal: 3, crashed: 4 } as const;

/**
 * Members kept per bucket (project, kind, day or hour, release, environment). Past it a new
 * member is not stored: it is counted in the bucket's session counts as `untracked_user` or,
 * for a session, straight as `errored` (it may then be counted twice if it errs again).
 */
export const MAX_BUCKET_MEMBERS = 20_000;

export interface FeedbackRecord {
  projectId: number;
  eventId: string | null;
  name: string;
  email: string;
  comments: string;
  receivedAt: number;
  data: string;
}

export interface CheckInRecord {
  projectId: number;
  checkInId: string;
  monitorSlug: string;
  status: string;
  duration: number | null;
  environment: string | null;
  receivedAt: number;
  data: string;
}

/** An item kept as received (profiles, replays, types Telltale does not read yet). */
export interface RawItemRecord {
  projectId: number;
  type: string;
  eventId: string | null;
  receivedAt: number;
  payload: Uint8Array;
}

/** What became of items, counted by category and reason (Sentry's outcomes). */
export interface OutcomeRecord {
  projectId: number;
  category: string;
  outcome: "accepted" | "filtered" | "rate_limited" | "invalid" | "too_large" | "client_discard";
  reason: string;
  quantity: number;
  /** When it happened (ms); counted in the hour that contains it. */
  at: number;
}

/** Everything one envelope (or a batch of them) produced. */
export interface DigestRecords {
  events: EventRecord[];
  transactions: TransactionRecord[];
  spans: SpanRecord[];
  logs: LogRecord[];
  sessions: SessionCountRecord[];
  sessionMembers: SessionMemberRecord[];
  feedback: FeedbackRecord[];
  checkIns: CheckInRecord[];
  rawItems: RawItemRecord[];
  outcomes: OutcomeRecord[];
}

export const emptyRecords = (): DigestRecords => ({
  events: [],
  transactions: [],
  spans: [],
  logs: [],
  sessions: [],
  sessionMembers: [],
  feedback: [],
  checkIns: [],
  rawItems: [],
  outcomes: [],
});

/** The records of several envelopes as one batch, in order. */
export function mergeRecords(parts: readonly DigestRecords[]): DigestRecords {
  const all = emptyRecords();
  for (const part of parts) {
    for (const key of Object.keys(all) as (keyof DigestRecords)[]) {
      const into: unknown[] = all[key];
      for (const record of part[key]) into.push(record);
    }
  }
  return all;
}
