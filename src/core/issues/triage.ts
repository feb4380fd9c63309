import { z } from "zod";
import type { Kysely, Selectable, Updateable } from "kysely";
import type { DB, User } from "../../db/schema";
import type { Ctx } from "../context";
import { invalidInput, notFound } from "../errors";
import { shortId } from "./queries";
import { validate } from "../validate";
import { mergeWindowCounts } from "./window-counts";
import { writeIssueChanges, type IssueChangeKind } from "../outbox/changes";

export type Issue = Selectable<DB["issues"]>;

/**
 * What a person can do to an issue (Sentry's triage): one validated input type, one action.
 * Every change lands in the issue's activity log with who made it.
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
  z.object({ action: z.literal("assign"), assigneeId: z.number().int().nullable() }),
  z.object({ action: z.literal("bookmark"), on: z.boolean() }),
  z.object({ action: z.literal("comment"), text: z.string().trim().min(1, "write a comment first").max(10_000) }),
]);
export type IssueChange = z.input<typeof IssueChange>;

const CLEAR_RESOLUTION = { resolved_at: null, resolved_in_release: null, resolved_next_release: 0 } as const;
const CLEAR_IGNORE = {
  ignore_until: null,
  ignore_count: null,
  ignore_users: null,
  ignore_baseline_count: null,
  ignore_baseline_users: null,
} as const;

/** The outbox kind of each activity type a person causes; bookmarks are personal and change nothing. */
const CHANGE_OF: Record<string, IssueChangeKind | undefined> = {
  set_resolved: "resolved",
  set_resolved_in_next_release: "resolved",
  set_resolved_in_release: "resolved",
  set_unresolved: "unresolved",
  set_ignored: "ignored",
  assigned: "assigned",
  unassigned: "unassigned",
  note: "commented",
  merge: "merged",
};

/** Records what a person did: the activity row, and the change in the outbox (same transaction). */
async function log(
  db: Kysely<DB>,
  projectId: number,
  issueId: number,
  user: User | null,
  type: string,
  data: Record<string, unknown>,
  now: number,
) {
  await db
    .insertInto("issue_activity")
    .values({ issue_id: issueId, user_id: user?.id ?? null, type, data: JSON.stringify(data), created_at: now })
    .execute();
  const kind = CHANGE_OF[type];
  if (kind) await writeIssueChanges(db, [{ projectId, issueId, kind, data, userId: user?.id ?? null, at: now }]);
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
  return ctx.db.transaction().execute(async (trx) => {
    const issues = await trx
      .selectFrom("issues")
      .selectAll()
      .where("id", "in", input.issueIds)
      .where("project_id", "in", input.projectIds.length ? input.projectIds : [-1])
      .execute();
    if (issues.length !== new Set(input.issueIds).size) throw notFound("some of these issues do not exist");
    const now = ctx.now();
    for (const issue of issues) await applyChange(trx, issue, input.user, change, now);
    return trx.selectFrom("issues").selectAll().where("id", "in", input.issueIds).execute();
  });
}

async function applyChange(db: Kysely<DB>, issue: Issue, user: User, change: z.output<typeof IssueChange>, now: number): Promise<void> {
  const set = (values: Updateable<DB["issues"]>) => db.updateTable("issues").set(values).where("id", "=", issue.id).execute();
  switch (change.action) {
    case "resolve":
      await set({
        status: "resolved",
        substatus: "resolved",
        resolved_at: now,
        resolved_in_release: null,
        resolved_next_release: 0,
        ...CLEAR_IGNORE,
      });
      return log(db, issue.project_id, issue.id, user, "set_resolved", {}, now);
    case "resolveInNextRelease":
      // Held back for events of the release it was last seen in; a newer release regresses it.
      await set({
        status: "resolved",
        substatus: "resolved",
        resolved_at: now,
        resolved_in_release: issue.last_release,
        resolved_next_release: 1,
        ...CLEAR_IGNORE,
      });
      return log(db, issue.project_id, issue.id, user, "set_resolved_in_next_release", { current_release: issue.last_release }, now);
    case "resolveInRelease":
      await set({
        status: "resolved",
        substatus: "resolved",
        resolved_at: now,
        resolved_in_release: change.release,
        resolved_next_release: 0,
        ...CLEAR_IGNORE,
      });
      return log(db, issue.project_id, issue.id, user, "set_resolved_in_release", { release: change.release }, now);
    case "unresolve":
      await set({ status: "unresolved", substatus: "ongoing", ...CLEAR_RESOLUTION, ...CLEAR_IGNORE });
      return log(db, issue.project_id, issue.id, user, "set_unresolved", {}, now);
    case "ignore": {
      const base = { status: "ignored" as const, ...CLEAR_RESOLUTION, ...CLEAR_IGNORE };
      if ("forever" in change) {
        await set({ ...base, substatus: "archived_forever" });
        return log(db, issue.project_id, issue.id, user, "set_ignored", { until: "forever" }, now);
      }
      if ("minutes" in change) {
        await set({ ...base, substatus: "archived_until_condition_met", ignore_until: now + change.minutes * 60_000 });
        return log(db, issue.project_id, issue.id, user, "set_ignored", { minutes: change.minutes }, now);
      }
      if ("count" in change) {
        await set({
          ...base,
          substatus: "archived_until_condition_met",
          ignore_count: change.count,
          ignore_baseline_count: issue.times_seen,
        });
        return log(db, issue.project_id, issue.id, user, "set_ignored", { count: change.count }, now);
      }
      await set({
        ...base,
        substatus: "archived_until_condition_met",
        ignore_users: change.users,
        ignore_baseline_users: issue.user_count,
      });
      return log(db, issue.project_id, issue.id, user, "set_ignored", { users: change.users }, now);
    }
    case "assign": {
      if (change.assigneeId !== null) {
        const member = await db
          .selectFrom("memberships")
          .innerJoin("projects", "projects.organization_id", "memberships.organization_id")
          .select("memberships.user_id")
          .where("projects.id", "=", issue.project_id)
          .where("memberships.user_id", "=", change.assigneeId)
          .executeTakeFirst();
        if (!member) throw invalidInput("assign the issue to a member of its organization");
      }
      await set({ assignee_id: change.assigneeId });
      return log(
        db,
        issue.project_id,
        issue.id,
        user,
        change.assigneeId === null ? "unassigned" : "assigned",
        { assignee_id: change.assigneeId },
        now,
      );
    }
    case "bookmark":
      if (change.on) {
        await db
          .insertInto("issue_bookmarks")
          .values({ issue_id: issue.id, user_id: user.id })
          .onConflict((oc) => oc.columns(["issue_id", "user_id"]).doNothing())
          .execute();
      } else await db.deleteFrom("issue_bookmarks").where("issue_id", "=", issue.id).where("user_id", "=", user.id).execute();
      return log(db, issue.project_id, issue.id, user, change.on ? "bookmarked" : "unbookmarked", {}, now);
    case "comment":
      return log(db, issue.project_id, issue.id, user, "note", { text: change.text }, now);
  }
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
  return ctx.db.transaction().execute(async (trx) => {
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
      await log(trx, o.project_id, o.id, input.user, "merge", { into: target.id, intoShortId: shortId(project, target) }, now);
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
    await log(trx, target.project_id, target.id, input.user, "merge", { merged: ids }, now);
    return trx.selectFrom("issues").selectAll().where("id", "=", target.id).executeTakeFirstOrThrow();
  });
}
