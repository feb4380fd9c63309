import type { Kysely } from "kysely";
import type { Issue } from "../core/issues/issue";
import type { DB } from "./schema";
import { mergeWindowCounts } from "./window-counts";

/**
 * The storage half of merging `others` into `into` (src/core/issues/triage.ts), in the caller's
 * transaction: events, hashes, tag, user, hour and minute counts move to `into`, whose counts
 * then cover all of `issues`, and the others are marked merged. Each hash remembers the issue
 * it came from, so that the merge can be undone (src/db/issue-unmerge.ts).
 */
export async function mergeInto(trx: Kysely<DB>, into: Issue, others: readonly Issue[], issues: readonly Issue[]): Promise<void> {
  const ids = others.map((o) => o.id);
  if (ids.length === 0) return;
  await trx.updateTable("events").set({ issue_id: into.id }).where("issue_id", "in", ids).execute();
  await trx
    .updateTable("issue_hashes")
    .set((eb) => ({ merged_from: eb.ref("issue_id") }))
    .where("issue_id", "in", ids)
    .where("merged_from", "is", null)
    .execute();
  await trx.updateTable("issue_hashes").set({ issue_id: into.id }).where("issue_id", "in", ids).execute();
  for (const o of others) {
    await addTags(trx, o.id, into.id);
    const users = await trx.selectFrom("issue_users").selectAll().where("issue_id", "=", o.id).execute();
    if (users.length) {
      await trx
        .insertInto("issue_users")
        .values(users.map((u) => ({ ...u, issue_id: into.id })))
        .onConflict((oc) => oc.columns(["issue_id", "user_key"]).doNothing())
        .execute();
    }
    const hours = await trx.selectFrom("issue_hourly").selectAll().where("issue_id", "=", o.id).execute();
    for (const h of hours) {
      await trx
        .insertInto("issue_hourly")
        .values({ ...h, issue_id: into.id })
        .onConflict((oc) =>
          oc.columns(["issue_id", "hour"]).doUpdateSet((eb) => ({ count: eb("issue_hourly.count", "+", eb.ref("excluded.count")) })),
        )
        .execute();
    }
    await mergeWindowCounts(trx, o.id, into.id);
  }
  const userCount = await trx
    .selectFrom("issue_users")
    .select((eb) => eb.fn.countAll<number>().as("n"))
    .where("issue_id", "=", into.id)
    .executeTakeFirstOrThrow();
  await trx
    .updateTable("issues")
    .set({
      times_seen: issues.reduce((s, i) => s + i.times_seen, 0),
      user_count: Number(userCount.n),
      first_seen: Math.min(...issues.map((i) => i.first_seen)),
      last_seen: Math.max(...issues.map((i) => i.last_seen)),
    })
    .where("id", "=", into.id)
    .execute();
  await trx
    .updateTable("issues")
    .set({ merged_into_id: into.id, status: "resolved", substatus: "merged" })
    .where("id", "in", ids)
    .execute();
}

/** Adds one issue's tag counts to another's: a value both have sums, one only `fromId` has is copied. */
async function addTags(trx: Kysely<DB>, fromId: number, intoId: number): Promise<void> {
  const tags = await trx.selectFrom("issue_tags").selectAll().where("issue_id", "=", fromId).execute();
  for (const t of tags) {
    const existing = await trx
      .selectFrom("issue_tags")
      .selectAll()
      .where("issue_id", "=", intoId)
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
        .where("issue_id", "=", intoId)
        .where("key", "=", t.key)
        .where("value", "=", t.value)
        .execute();
    } else
      await trx
        .insertInto("issue_tags")
        .values({ ...t, issue_id: intoId })
        .execute();
  }
}
