import { z } from "zod";
import type { Kysely, Selectable } from "kysely";
import type { DB, User } from "../../db/schema";
import type { Ctx } from "../context";
import { invalidInput, notFound } from "../errors";
import { shortId } from "./queries";
import { validate } from "../validate";
import { mergeWindowCounts } from "./window-counts";
import { moveMergedBack } from "../../db/issue-unmerge";
import { writeIssueChanges } from "../outbox/changes";
import { onTriage, type StateChange, type TriageAction } from "./state";
import { isVersion, releaseToHoldBack } from "./releases";
import type { ReleaseOrder } from "../ports/release-order";
import { driveInProcessConsumers } from "../outbox/in-process";

export type Issue = Selectable<DB["issues"]>;

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

/** Writes a change to the outbox in `db`'s transaction; the activity log is written from there (activity.ts). */
async function record(db: Kysely<DB>, projectId: number, issueId: number, user: User, change: StateChange, now: number) {
  await writeIssueChanges(db, [{ projectId, issueId, ...change, userId: user.id, at: now }]);
}

/** Applies one change to issues of one project; returns the updated issues. */
export async function changeIssues({
  ctx,
  input,
}: {
  ctx: Ctx;
  input: { projectIds: number[]; issueIds: number[]; user: User; change: IssueChange };
}): Promise<Issue[]> {
  const change = validate(IssueChange, input.change);
  if (input.issueIds.length === 0) throw invalidInput("select at least one issue");
  const updated = await ctx.db.transaction().execute(async (trx) => {
    const issues = await trx
      .selectFrom("issues")
      .selectAll()
      .where("id", "in", input.issueIds)
      .where("project_id", "in", input.projectIds.length ? input.projectIds : [-1])
      .execute();
    if (issues.length !== new Set(input.issueIds).size) throw notFound("some of these issues do not exist");
    const now = ctx.now();
    const order = ctx.releaseOrder.within(trx);
    for (const issue of issues) await applyChange(trx, order, issue, input.user, change, now);
    return trx.selectFrom("issues").selectAll().where("id", "in", input.issueIds).execute();
  });
  await afterCommit(ctx);
  return updated;
}

/** How many of a project's newest releases "resolve in the next release" looks through for a greater version. */
const RELEASES_CONSULTED = 1000;

async function applyChange(
  db: Kysely<DB>,
  order: ReleaseOrder,
  issue: Issue,
  user: User,
  change: z.output<typeof IssueChange>,
  now: number,
): Promise<void> {
  if (change.action === "bookmark") {
    // Personal, not a change of the issue: no outbox entry, no activity.
    if (change.on)
      await db
        .insertInto("issue_bookmarks")
        .values({ issue_id: issue.id, user_id: user.id })
        .onConflict((oc) => oc.columns(["issue_id", "user_id"]).doNothing())
        .execute();
    else await db.deleteFrom("issue_bookmarks").where("issue_id", "=", issue.id).where("user_id", "=", user.id).execute();
    return;
  }
  if (change.action === "assign" && change.assigneeId !== null) {
    const member = await db
      .selectFrom("memberships")
      .innerJoin("projects", "projects.organization_id", "memberships.organization_id")
      .select("memberships.user_id")
      .where("projects.id", "=", issue.project_id)
      .where("memberships.user_id", "=", change.assigneeId)
      .executeTakeFirst();
    if (!member) throw invalidInput("assign the issue to a member of its organization");
  }
  let teamSlug: string | null = null;
  if (change.action === "assign" && change.teamId != null) {
    const team = await db
      .selectFrom("teams")
      .innerJoin("projects", "projects.organization_id", "teams.organization_id")
      .select(["teams.id", "teams.slug"])
      .where("projects.id", "=", issue.project_id)
      .where("teams.id", "=", change.teamId)
      .executeTakeFirst();
    if (!team) throw invalidInput("assign the issue to a team of its organization");
    teamSlug = team.slug;
  }
  let action: TriageAction = change;
  if (change.action === "resolveInNextRelease" && issue.last_release !== null && isVersion(issue.last_release)) {
    const versions = await order.versions(issue.project_id, RELEASES_CONSULTED);
    action = { ...change, current: releaseToHoldBack(issue.last_release, versions) };
  }
  const { set, change: made } = onTriage(issue, action, now);
  // The activity log names the team as it was called then (a renamed or deleted team stays readable).
  if (made && teamSlug !== null) made.data.team_slug = teamSlug;
  if (Object.keys(set).length > 0) await db.updateTable("issues").set(set).where("id", "=", issue.id).execute();
  if (made) await record(db, issue.project_id, issue.id, user, made, now);
}

/**
 * Merges issues into the one seen first: their events, hashes, tag and user counts move
 * there, and the others are marked merged (kept for their short ids, hidden from lists).
 */
export async function mergeIssues({
  ctx,
  input,
}: {
  ctx: Ctx;
  input: { projectIds: number[]; issueIds: number[]; user: User };
}): Promise<Issue> {
  if (new Set(input.issueIds).size < 2) throw invalidInput("select at least two issues to merge");
  const merged = await ctx.db.transaction().execute(async (trx) => {
    const issues = await trx
      .selectFrom("issues")
      .selectAll()
      .where("id", "in", input.issueIds)
      .where("project_id", "in", input.projectIds)
      .orderBy("first_seen")
      .orderBy("id")
      .execute();
    if (issues.length !== new Set(input.issueIds).size) throw notFound("some of these issues do not exist");
    if (new Set(issues.map((i) => i.project_id)).size > 1) throw invalidInput("only issues of one project can be merged");
    const [target, ...others] = issues as [Issue, ...Issue[]];
    const ids = others.map((o) => o.id);
    const project = await trx.selectFrom("projects").select("slug").where("id", "=", target.project_id).executeTakeFirstOrThrow();
    const now = ctx.now();
    await trx.updateTable("events").set({ issue_id: target.id }).where("issue_id", "in", ids).execute();
    // Each hash remembers the issue it came from, so the merge can be undone (unmergeIssue).
    await trx
      .updateTable("issue_hashes")
      .set((eb) => ({ merged_from: eb.ref("issue_id") }))
      .where("issue_id", "in", ids)
      .where("merged_from", "is", null)
      .execute();
    await trx.updateTable("issue_hashes").set({ issue_id: target.id }).where("issue_id", "in", ids).execute();
    for (const o of others) {
      const tags = await trx.selectFrom("issue_tags").selectAll().where("issue_id", "=", o.id).execute();
      for (const t of tags) {
        const existing = await trx
          .selectFrom("issue_tags")
          .selectAll()
          .where("issue_id", "=", target.id)
          .where("key", "=", t.key)
          .where("value", "=", t.value)
          .executeTakeFirst();
        if (existing) {
          await trx
            .updateTable("issue_tags")
            .set({
              times_seen: existing.times_seen + t.times_seen,
              first_seen: Math.min(existing.first_seen, t.first_seen),
              last_seen: Math.max(existing.last_seen, t.last_seen),
            })
            .where("issue_id", "=", target.id)
            .where("key", "=", t.key)
            .where("value", "=", t.value)
            .execute();
        } else
          await trx
            .insertInto("issue_tags")
            .values({ ...t, issue_id: target.id })
            .execute();
      }
      const users = await trx.selectFrom("issue_users").selectAll().where("issue_id", "=", o.id).execute();
      if (users.length) {
        await trx
          .insertInto("issue_users")
          .values(users.map((u) => ({ ...u, issue_id: target.id })))
          .onConflict((oc) => oc.columns(["issue_id", "user_key"]).doNothing())
          .execute();
      }
      const hours = await trx.selectFrom("issue_hourly").selectAll().where("issue_id", "=", o.id).execute();
      for (const h of hours) {
        await trx
          .insertInto("issue_hourly")
          .values({ ...h, issue_id: target.id })
          .onConflict((oc) =>
            oc.columns(["issue_id", "hour"]).doUpdateSet((eb) => ({ count: eb("issue_hourly.count", "+", eb.ref("excluded.count")) })),
          )
          .execute();
      }
      await mergeWindowCounts(trx, o.id, target.id);
      // The short id too: the merged issue's activity names its new home as users know it (SHOP-1).
      await record(
        trx,
        o.project_id,
        o.id,
        input.user,
        { kind: "merged", data: { into: target.id, intoShortId: shortId(project, target) } },
        now,
      );
    }
    const userCount = await trx
      .selectFrom("issue_users")
      .select((eb) => eb.fn.countAll<number>().as("n"))
      .where("issue_id", "=", target.id)
      .executeTakeFirstOrThrow();
    await trx
      .updateTable("issues")
      .set({
        times_seen: issues.reduce((s, i) => s + i.times_seen, 0),
        user_count: Number(userCount.n),
        first_seen: Math.min(...issues.map((i) => i.first_seen)),
        last_seen: Math.max(...issues.map((i) => i.last_seen)),
      })
      .where("id", "=", target.id)
      .execute();
    await trx
      .updateTable("issues")
      .set({ merged_into_id: target.id, status: "resolved", substatus: "merged" })
      .where("id", "in", ids)
      .execute();
    const mergedShortIds = others.map((o) => shortId(project, o));
    await record(trx, target.project_id, target.id, input.user, { kind: "merged", data: { merged: ids, mergedShortIds } }, now);
    return trx.selectFrom("issues").selectAll().where("id", "=", target.id).executeTakeFirstOrThrow();
  });
  await afterCommit(ctx);
  return merged;
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
  input: { projectIds: number[]; issueId: number; user: User };
}): Promise<{ issue: Issue; target: Issue; events: number }> {
  const result = await ctx.db.transaction().execute(async (trx) => {
    const issue = await trx
      .selectFrom("issues")
      .selectAll()
      .where("id", "=", input.issueId)
      .where("project_id", "in", input.projectIds.length ? input.projectIds : [-1])
      .executeTakeFirst();
    if (!issue) throw notFound("this issue does not exist");
    if (issue.merged_into_id === null) throw invalidInput("this issue is not merged into another");
    const target = await trx.selectFrom("issues").selectAll().where("id", "=", issue.merged_into_id).executeTakeFirstOrThrow();
    const moved = await moveMergedBack(trx, issue, target);
    if (moved.hashes === 0)
      throw invalidInput("this merge cannot be undone: it was made before Telltale recorded which fingerprints a merge moves");
    const project = await trx.selectFrom("projects").select("slug").where("id", "=", issue.project_id).executeTakeFirstOrThrow();
    const now = ctx.now();
    const data = { from: target.id, fromShortId: shortId(project, target), events: moved.events };
    await record(trx, issue.project_id, issue.id, input.user, { kind: "unmerged", data }, now);
    await record(
      trx,
      target.project_id,
      target.id,
      input.user,
      { kind: "unmerged", data: { issue: issue.id, issueShortId: shortId(project, issue) } },
      now,
    );
    const [after, targetAfter] = await Promise.all([
      trx.selectFrom("issues").selectAll().where("id", "=", issue.id).executeTakeFirstOrThrow(),
      trx.selectFrom("issues").selectAll().where("id", "=", target.id).executeTakeFirstOrThrow(),
    ]);
    return { issue: after, target: targetAfter, events: moved.events };
  });
  await afterCommit(ctx);
  return result;
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
