import type { Issue } from "../issues/issue";
import type { IssueState } from "../issues/state";
import type { NewIssueChange } from "../outbox/changes";
import type { ReleaseOrder } from "./release-order";

/** The issues an action names, and the projects the person acting may triage (others' issues are not found). */
export interface IssueSelection {
  projectIds: readonly number[];
  issueIds: readonly number[];
}

/** What deciding one issue's change may read, through the action's transaction. */
export interface TriageReads {
  releaseOrder: ReleaseOrder;
  /** Whether the user is a member of the organization the project belongs to. */
  isMember(projectId: number, userId: number): Promise<boolean>;
  /** The slug of the team, when it is a team of the organization the project belongs to. */
  teamSlug(projectId: number, teamId: number): Promise<string | null>;
}

/** What a change makes of one issue: a person's bookmark, or columns to set with the change to record. */
export type TriageStep =
  { kind: "bookmark"; userId: number; on: boolean } | { kind: "update"; set: Partial<IssueState>; change: NewIssueChange | null };

/** What a merge does: the issue the others go into, and the changes it records. */
export interface MergePlan {
  into: Issue;
  changes: readonly NewIssueChange[];
}

/** What an unmerge moved back out of the issue it had been merged into. */
export interface Unmerged {
  issue: Issue;
  target: Issue;
  /** The project's slug, for the short ids the activity names. */
  projectSlug: string;
  events: number;
}

export type UnmergeOutcome =
  | { kind: "not found" }
  | { kind: "not merged" }
  /** Merged before merges recorded which fingerprints they moved: nothing to move back. */
  | { kind: "not recorded" }
  | { kind: "unmerged"; issue: Issue; target: Issue; events: number };

/**
 * A person's actions on issues (src/core/issues/triage.ts). Each method is one transaction: it
 * reads the issues, asks core's callback what to do (the callback decides, validates and throws
 * to refuse, which rolls everything back), then writes the issues and the changes to the outbox
 * together. Implemented over the main database by src/db/issue-triage-store.ts.
 */
export interface IssueTriage {
  /** Applies `step` to each selected issue; the issues after, or null when one of them does not exist. */
  change(selection: IssueSelection, step: (issue: Issue, reads: TriageReads) => Promise<TriageStep>): Promise<Issue[] | null>;
  /**
   * Merges the selected issues (given to `plan` oldest first, with the slug of the first one's
   * project) into the one `plan` names: events, hashes, tag, user, hour and minute counts move
   * there and the others are marked merged. The issue merged into, or null when one does not exist.
   */
  merge(selection: IssueSelection, plan: (issues: readonly [Issue, ...Issue[]], projectSlug: string) => MergePlan): Promise<Issue | null>;
  /**
   * Deletes the selected issues that exist (others are left out, not an error) with what hangs
   * on them: events and their attachments, counts, hashes, activity, outbox changes, and the
   * issues merged into them. The issues deleted (the named ones first), none when nothing matched.
   */
  delete(selection: IssueSelection): Promise<Issue[]>;
  /**
   * Moves back what merging `issueId` moved into another issue and unresolves it; `changes` names
   * what to record about it.
   */
  unmerge(
    selection: { projectIds: readonly number[]; issueId: number },
    changes: (unmerged: Unmerged) => readonly NewIssueChange[],
  ): Promise<UnmergeOutcome>;
}
