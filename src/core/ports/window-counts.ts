export interface WindowCounts {
  events: number;
  users: number;
}

/** The buckets a window reads: minute or hour buckets starting from `from` up to `to` (ms, both included). */
export interface WindowSpan {
  unit: "minute" | "hour";
  from: number;
  to: number;
}

/**
 * The minute and hour buckets frequency conditions count from (src/core/issues/window-counts.ts),
 * outside the digest, which adds to them through its IssueStore. Implemented over the main
 * database by src/db/window-counts.ts.
 */
export interface IssueWindowCounts {
  /** The issue's events and distinct users in the span's buckets. */
  counts(issueId: number, span: WindowSpan): Promise<WindowCounts>;
  /** Drops the minute buckets that start before `before` (ms). */
  pruneMinutes(before: number): Promise<void>;
}
