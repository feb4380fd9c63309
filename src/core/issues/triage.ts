import { z } from "zod";
import type { Ctx } from "../context";
import { invalidInput, notFound } from "../errors";
import { validate } from "../validate";
import type { NewIssueChange } from "../outbox/changes";
import type { TriageReads, TriageStep } from "../ports/issue-triage";
import { shortId, type Issue } from "./issue";
import { onTriage, type StateChange, type TriageAction } from "./state";
import { isVersion, releaseToHoldBack } from "./releases";
import { driveInProcessConsumers } from "../outbox/in-process";

/**
 * What a person can do to an issue (Sentry's triage): one validated input type, one action.
 * Every change goes to the outbox with who made it, and from there to the issue's activity log.
 */
export const IssueChange = z.union([
  z.object({ action: z.literal("resolve") }),
  z.object({ action: z.literal("resolveInNextRelease") }),
  z.object({ action: z.literal("resolveInRelease"), release: z.string().trim().min(1).max(200) }),
  z.object({ action: z.literal("unresolve") }),
  z.object({ action: z.literal("ignore"), forever: z.literal(true) }),
  z.object({ action: z.literal("ignore"), minutes: z.coerce.number().int().min(1).max(525_600) }),
  z.object({ action: z.literal("ignore"), count: z.coerce.number().int().min(1).max(1_000_000_000) }),
  z.object({ action: z.literal("ignore"), users: z.coerce.number().int().min(1).max(1_000_000_000) }),
  z.object({ action: z.literal("assign"), assigneeId: z.number().int().nullable(), teamId: z.number().int().nullable().optional() }),
  z.object({ action: z.literal("bookmark"), on: z.boolean() }),
  z.object({ action: z.literal("comment"), text: z.string().trim().min(1, "write a comment first").max(10_000) }),
]);
export type IssueChange = z.input<typeof IssueChange>;

/** Who acts: only their id is recorded. */
type Actor = { id: number };

/** Applies one change to issues of one project; returns the updated issues. */
export async function changeIssues({
  ctx,
  input,
}: {
  ctx: Ctx;
  input: { projectIds: number[]; issueIds: number[]; user: Actor; change: IssueChange };
}): Promise<Issue[]> {
  const change = validate(IssueChange, input.change);
  if (input.issueIds.length === 0) throw invalidInput("select at least one issue");
  const now = ctx.now();
  const updated = await ctx.issueTriage.change(input, (issue, reads) => triageStep(reads, issue, input.user, change, now));
  if (!updated) throw notFound("some of these issues do not exist");
  await afterCommit(ctx);
  return updated;
}

/** How many of a project's newest releases "resolve in the next release" looks through for a greater version. */
const RELEASES_CONSULTED = 1000;

async function triageStep(
  reads: TriageReads,
  issue: Issue,
  user: Actor,
  change: z.output<typeof IssueChange>,
  now: number,
): Promise<TriageStep> {
  // Personal, not a change of the issue: no outbox entry, no activity.
  if (change.action === "bookmark") return { kind: "bookmark", userId: user.id, on: change.on };
  if (change.action === "assign" && change.assigneeId !== null && !(await reads.isMember(issue.project_id, change.assigneeId)))
    throw invalidInput("assign the issue to a member of its organization");
  let teamSlug: string | null = null;
  if (change.action === "assign" && change.teamId != null) {
    teamSlug = await reads.teamSlug(issue.project_id, change.teamId);
    if (teamSlug === null) throw invalidInput("assign the issue to a team of its organization");
  }
  let action: TriageAction = change;
  if (change.action === "resolveInNextRelease" && issue.last_release !== null && isVersion(issue.last_release)) {
    const versions = await reads.releaseOrder.versions(issue.project_id, RELEASES_CONSULTED);
    action = { ...change, current: releaseToHoldBack(issue.last_release, versions) };
  }
  const { set, change: made } = onTriage(issue, action, now);
  // The activity log names the team as it was called then (a renamed or deleted team stays readable).
  if (made && teamSlug !== null) made.data.team_slug = teamSlug;
  return { kind: "update", set, change: made && recorded(issue, user, made, now) };
}

/** A change as the outbox takes it, with who made it; the activity log is written from there (activity.ts). */
const recorded = (issue: Issue, user: Actor, change: StateChange, at: number): NewIssueChange => ({
  projectId: issue.project_id,
  issueId: issue.id,
  ...change,
  userId: user.id,
  at,
});

/**
 * Merges issues into the one seen first: their events, hashes, tag and user counts move
 * there, and the others are marked merged (kept for their short ids, hidden from lists).
 */
export async function mergeIssues({
  ctx,
  input,
}: {
  ctx: Ctx;
  input: { projectIds: number[]; issueIds: number[]; user: Actor };
}): Promise<Issue> {
  if (new Set(input.issueIds).size < 2) throw invalidInput("select at least two issues to merge");
  const now = ctx.now();
  const merged = await ctx.issueTriage.merge(input, (issues, slug) => {
    if (new Set(issues.map((i) => i.project_id)).size > 1) throw invalidInput("only issues of one project can be merged");
    const [into, ...others] = issues;
    const project = { slug };
    const ids = others.map((o) => o.id);
    return {
      into,
      changes: [
        // The short id too: the merged issue's activity names its new home as users know it (SHOP-1).
        ...others.map((o) =>
          recorded(o, input.user, { kind: "merged", data: { into: into.id, intoShortId: shortId(project, into) } }, now),
        ),
        recorded(into, input.user, { kind: "merged", data: { merged: ids, mergedShortIds: others.map((o) => shortId(project, o)) } }, now),
      ],
    };
  });
  if (!merged) throw notFound("some of these issues do not exist");
  await afterCommit(ctx);
  return merged;
}

/**
 * Deletes issues for good, with their events and counts (IssueTriage.delete); ids that name no
 * issue of these projects are left out. Nothing is recorded on the issue, which is gone: the
 * caller records who deleted what (the audit log). The issues deleted, merged-in ones included.
 */
export async function deleteIssues({ ctx, input }: { ctx: Ctx; input: { projectIds: number[]; issueIds: number[] } }): Promise<Issue[]> {
  if (input.issueIds.length === 0) return [];
  return ctx.issueTriage.delete(input);
}

/**
 * Undoes a merge of `issueId` (an issue merged into another): the hashes the merge moved go back
 * to it with their events and counts (src/db/issue-unmerge.ts), and it is unresolved again.
 * Both issues' activity records who did it.
 */
export async function unmergeIssue({
  ctx,
  input,
}: {
  ctx: Ctx;
  input: { projectIds: number[]; issueId: number; user: Actor };
}): Promise<{ issue: Issue; target: Issue; events: number }> {
  const now = ctx.now();
  const outcome = await ctx.issueTriage.unmerge(input, ({ issue, target, projectSlug, events }) => {
    const project = { slug: projectSlug };
    return [
      recorded(issue, input.user, { kind: "unmerged", data: { from: target.id, fromShortId: shortId(project, target), events } }, now),
      recorded(target, input.user, { kind: "unmerged", data: { issue: issue.id, issueShortId: shortId(project, issue) } }, now),
    ];
  });
  if (outcome.kind === "not found") throw notFound("this issue does not exist");
  if (outcome.kind === "not merged") throw invalidInput("this issue is not merged into another");
  if (outcome.kind === "not recorded")
    throw invalidInput("this merge cannot be undone: it was made before Telltale recorded which fingerprints a merge moves");
  await afterCommit(ctx);
  return { issue: outcome.issue, target: outcome.target, events: outcome.events };
}

/**
 * The activity log follows the outbox (activity.ts): driven here so the page shows the action's
 * entry as soon as it returns. The action has committed: a failure here is the next drive's to
 * catch up (the digest drives after every batch), not the person's error.
 */
async function afterCommit(ctx: Ctx): Promise<void> {
  try {
    await driveInProcessConsumers(ctx);
  } catch {
    // Left for the next drive; the changes stay in the outbox until every consumer has taken them.
  }
}
