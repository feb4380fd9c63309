import type { Term } from "../search/ast";

/**
 * Discover's reads (Sentry's `events/` and `events-stats/`): one plan, answered over one
 * dataset. Core parses and checks the fields and the query (src/core/discover); an
 * implementation only turns the plan into its own query, so the spans and logs datasets add
 * columns to the registry without changing this port.
 */
export interface DiscoverReader {
  /** The plan's rows, keyed by the exact field strings asked for. */
  table(plan: DiscoverPlan): Promise<DiscoverRow[]>;
  /** Counts per time bucket (`intervalSeconds` wide, aligned on the epoch) and per group. */
  series(plan: DiscoverPlan, intervalSeconds: number): Promise<DiscoverBucket[]>;
}

export type DiscoverValue = string | number | null;
export type DiscoverRow = Record<string, DiscoverValue>;

export interface DiscoverBucket {
  /** The bucket's start, in seconds since the epoch. */
  bucket: number;
  row: DiscoverRow;
}

/** A stored column a dataset exposes, by the name the plan uses. */
export type DiscoverColumnName = "title" | "project" | "release" | "environment" | "level" | "timestamp" | "id" | "issue.id";

export type DiscoverAggregate =
  | { key: string; fn: "count" }
  | { key: string; fn: "count_unique"; column: DiscoverColumnName }
  | { key: string; fn: "last_seen" | "first_seen" };

export interface DiscoverPlan {
  dataset: "errors";
  projectIds: readonly number[];
  /** Seconds since the epoch, `start` included, `end` excluded. */
  start: number;
  end: number;
  /** Search terms, already checked against the dataset's columns. */
  terms: readonly Term[];
  /** The plain fields: selected and, when there are aggregates, grouped by. */
  columns: readonly { key: string; column: DiscoverColumnName }[];
  aggregates: readonly DiscoverAggregate[];
  /** Keys of `columns` or `aggregates`. */
  orderBy: readonly { key: string; descending: boolean }[];
  limit: number;
  offset: number;
}
