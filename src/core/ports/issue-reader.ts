import type { Issue, IssuePerson, IssueProject, IssueTeam } from "../issues/issue";

/** One value of an issue's tag and how many of its events carried it. */
export interface IssueTagCount {
  key: string;
  value: string;
  timesSeen: number;
}

/** An issue's events in one hour (the hour's start, ms). */
export interface IssueHour {
  issueId: number;
  hour: number;
  count: number;
}

export interface ActivityEntry {
  id: number;
  type: string;
  data: Record<string, unknown>;
  createdAt: number;
  user: IssuePerson | null;
}

/** One value of a tag key across issues: events that carried it, first and last seen (ms). */
export interface TagValueCount {
  value: string;
  count: number;
  firstSeen: number;
  lastSeen: number;
}

/** A tag key with its values' event total and, for one issue, how many distinct values it has. */
export interface TagKeyCount {
  key: string;
  totalValues: number;
  uniqueValues: number;
}

/** The order of one issue key's values: by events, last seen or first seen, most first when `descending`. */
export interface TagValueOrder {
  by: "count" | "lastSeen" | "firstSeen";
  descending: boolean;
}

/**
 * What issue pages, lists and the API read about issues beside the issue stream's search
 * (src/core/ports/issue-search.ts): the issue, its tags, counts, activity and what a list shows
 * beside it. Every list argument may be empty. Implemented over the main database by
 * src/db/issue-reader.ts.
 */
export interface IssueReader {
  /** The issue with its project, when the project belongs to the organization. */
  inOrganization(organizationId: number, issueId: number): Promise<{ issue: Issue; project: IssueProject } | null>;
  /**
   * The slug of the organization an issue belongs to, or null when there is no such issue: for
   * paths that name an issue alone (`/api/0/issues/{id}/`), which are then authorized as usual.
   */
  organizationSlugOf(issueId: number): Promise<string | null>;
  /** The issue numbered `shortNumber` in the organization's project `projectSlug`. */
  byShortNumber(organizationId: number, projectSlug: string, shortNumber: number): Promise<Issue | null>;
  /** The issue's tag values, by key, the most seen first within a key. */
  tags(issueId: number): Promise<IssueTagCount[]>;
  /** The hourly counts of these issues for the hours starting at `from` and before `to` (ms). */
  hourly(issueIds: readonly number[], from: number, to: number): Promise<IssueHour[]>;
  /** The issue's activity, newest first, at most `limit` entries. */
  activity(issueId: number, limit: number): Promise<ActivityEntry[]>;
  /** Which of these issues the user bookmarked. */
  bookmarked(issueIds: readonly number[], userId: number): Promise<ReadonlySet<number>>;
  /** How many comments each of these issues has (issues without any are left out). */
  commentCounts(issueIds: readonly number[]): Promise<Map<number, number>>;
  /** The users with these ids (ones that do not exist are left out). */
  people(userIds: readonly number[]): Promise<IssuePerson[]>;
  /** The teams with these ids (ones that do not exist are left out). */
  teams(teamIds: readonly number[]): Promise<IssueTeam[]>;
  /** The hashes that lead to the issue (its own and those of issues merged into it), in order. */
  hashes(issueId: number): Promise<string[]>;
  /**
   * Tag values summed over the `issues` most recently seen issues of these projects, the most
   * seen first (then by key and value), at most `rows`.
   */
  recentTagValues(projectIds: readonly number[], limits: { issues: number; rows: number }): Promise<{ key: string; value: string }[]>;
  /** One key's values in these projects' issues, most seen first (then by value), optionally only those starting with `prefix`. */
  tagValues(projectIds: readonly number[], key: string, options: { prefix?: string | undefined; limit: number }): Promise<TagValueCount[]>;
  /** The issue's tag keys (only `keys` when given), alphabetically. */
  issueTagKeys(issueId: number, keys?: readonly string[]): Promise<TagKeyCount[]>;
  /** One key's values of the issue in `order` (then by value), skipping `offset`, at most `limit`. */
  issueTagValues(issueId: number, key: string, page: { order: TagValueOrder; offset: number; limit: number }): Promise<TagValueCount[]>;
  /**
   * The tag keys of these projects' issues, most seen first (then by key), at most `limit`;
   * with `since` (ms), only values seen since then.
   */
  tagKeys(
    projectIds: readonly number[],
    options: { since?: number | undefined; limit: number },
  ): Promise<{ key: string; totalValues: number }[]>;
}
