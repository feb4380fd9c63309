/**
 * Outcome counts (src/core/outcomes/record.ts): added to per hour, read back for the stats
 * page and the issue stream's "filtered" note. Implemented for both dialects by
 * src/db/outcome-store.ts, which also adds them inside the digest's transaction.
 */

export type Outcome = "accepted" | "filtered" | "rate_limited" | "invalid" | "too_large" | "client_discard";

export interface OutcomeCount {
  projectId: number;
  category: string;
  outcome: Outcome;
  reason: string;
  quantity: number;
  /** When it happened (ms); counted in the hour that contains it. */
  at: number;
}

/** A stored count: one project, hour (ms), category, outcome and reason. */
export interface OutcomeRow {
  hour: number;
  category: string;
  outcome: string;
  reason: string;
  quantity: number;
}

/** A stored count with the project it belongs to. */
export interface ProjectOutcomeRow extends OutcomeRow {
  projectId: number;
}

export interface FilteredCount {
  projectId: number;
  reason: string;
  quantity: number;
}

export interface OutcomeStore {
  /** Adds the counts to their hours' stored ones, in one statement. */
  record(counts: readonly OutcomeCount[]): Promise<void>;
  /** A project's counts from `since` (ms), by hour, category, outcome and reason. */
  ofProject(projectId: number, since: number): Promise<OutcomeRow[]>;
  /** These projects' counts in hours from `since` up to (not including) `until` (ms), oldest hour first, in no other order. */
  ofProjects(projectIds: readonly number[], since: number, until: number): Promise<ProjectOutcomeRow[]>;
  /** Error events the inbound filters dropped in these projects from `since` (ms), summed by project and reason, in no order. */
  filteredErrors(projectIds: readonly number[], since: number): Promise<FilteredCount[]>;
}
