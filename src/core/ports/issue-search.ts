import type { KeysetPage } from "../pagination";
import type { Issue } from "../issues/issue";
import type { IssueQuery } from "../search/ast";
import type { IssueCursor, IssueSort } from "../search/sort";

/** One page of the issue stream: which projects, the parsed query, the order and where to start. */
export interface IssuePageRequest {
  projectIds: readonly number[];
  query: IssueQuery;
  /** The user `me` means (`assigned:me`, `bookmarks:me`, `is:bookmarked`); with none, those match nothing. */
  userId: number | null;
  /** Milliseconds since the epoch, for relative dates (`firstSeen:-24h`). */
  now: number;
  /** Only issues seen since this time (ms), the time-range switcher. */
  since?: number | undefined;
  sort: IssueSort;
  /** The page boundary to start from (after it, or before it for a previous page); null for the first page. */
  cursor: IssueCursor | null;
  limit: number;
}

/**
 * How core searches issues (decision 0009): a parsed query (src/core/search) in, a keyset page
 * out, with the cursors of the pages before and after (null at either end). Pages never skip or repeat an
 * issue while new events arrive; merged issues are never listed. Implemented over the main
 * database by src/db/issue-search.ts.
 */
export interface IssueSearch {
  page(request: IssuePageRequest): Promise<KeysetPage<Issue>>;
  /**
   * The environments these projects' issues were seen in (their `environment` tag), in
   * alphabetical order, at most `limit`. Its cost follows the number of distinct environment
   * names, not the number of issues: the issue stream's environment switcher asks on every view.
   */
  environments(projectIds: readonly number[], limit: number): Promise<string[]>;
  /** Which of these tag keys an issue of these projects carries (to refuse a search on a key none has). */
  tagKeysSeen(projectIds: readonly number[], keys: readonly string[]): Promise<string[]>;
}
