import type { IssueFields } from "../grouping/index";
import type { IssueState } from "../issues/state";
import type { WindowSample } from "../issues/window-counts";
import type { NewIssueChange } from "../outbox/changes";

/**
 * What the digest's issue step (src/core/issues/assign.ts) needs from storage: fingerprints,
 * counts and state (decision 0009). An implementation is bound to the caller's transaction
 * (src/db/issue-store.ts), so all of it commits or rolls back with the batch's telemetry.
 */
export interface IssueStore {
  /** The issues already known by these hashes in a project: hash → issue id. */
  issuesByHash(projectId: number, hashes: readonly string[]): Promise<Map<string, number>>;
  /** Hashes an existing issue learns (a grouping upgrade); a hash another issue holds stays its. */
  addHashes(rows: readonly IssueHash[]): Promise<void>;
  /**
   * Creates an issue holding `hashes`, numbered next in its project. When another writer
   * claimed one of the hashes first (PostgreSQL, several digesters), nothing is created and
   * that writer's issue is returned: the event belongs there.
   */
  createIssue(issue: NewIssue): Promise<number>;
  /** Records distinct users per issue; answers how many of them each issue had not seen yet. */
  addUsers(rows: readonly IssueUser[]): Promise<Map<number, number>>;
  /** The issues as stored, by id; `lock` (PostgreSQL) holds them for this transaction, in id order. */
  readIssues(ids: readonly number[], lock: boolean): Promise<Map<number, StoredIssueState>>;
  /** Sets each issue's columns as given (an issue's update names only the columns it changes). */
  updateIssues(rows: readonly IssueRowUpdate[]): Promise<void>;
  /** Adds to the tag index: counts add up, first and last seen widen. */
  addTags(rows: readonly IssueTagDelta[]): Promise<void>;
  /** Adds to the hourly counts. */
  addHours(rows: readonly IssueHourDelta[]): Promise<void>;
  /** Adds to the per-minute counts and distinct users (frequency conditions). */
  addWindowCounts(samples: readonly WindowSample[]): Promise<void>;
  /** The projects among these with an active frequency alert rule: their issues write a `seen` change per batch (decision 0019). */
  projectsCountingEvents(projectIds: readonly number[]): Promise<ReadonlySet<number>>;
  /** Writes changes to the outbox, numbered in commit order (decision 0010). */
  writeChanges(changes: readonly NewIssueChange[]): Promise<void>;
}

export interface IssueHash {
  projectId: number;
  hash: string;
  issueId: number;
  config: string;
}

export interface NewIssue {
  projectId: number;
  hashes: readonly string[];
  config: string;
  fields: IssueFields;
  /** The first event's time (ms), release and environment. */
  seenAt: number;
  release: string | null;
  environment: string | null;
}

export interface IssueUser {
  issueId: number;
  userKey: string;
  firstSeen: number;
}

/** What the issue step reads of an issue: its state and what its counts add to. */
export interface StoredIssueState extends IssueState {
  first_seen: number;
  last_seen: number;
  last_environment: string | null;
}

/** Columns the issue step writes (the issue row's names). */
export interface IssueUpdate extends Partial<IssueState> {
  times_seen: number;
  user_count: number;
  first_seen: number;
  last_seen: number;
  last_environment?: string | null;
  level?: string;
  title?: string;
  culprit?: string;
  /** JSON text. */
  metadata?: string;
}

export interface IssueRowUpdate {
  id: number;
  update: IssueUpdate;
}

export interface IssueTagDelta {
  issueId: number;
  key: string;
  value: string;
  count: number;
  firstSeen: number;
  lastSeen: number;
}

export interface IssueHourDelta {
  issueId: number;
  hour: number;
  count: number;
}
