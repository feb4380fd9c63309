import type { Kysely } from "kysely";
import type { Issue } from "../core/issues/issue";
import type { DB } from "./schema";

/**
 * The storage half of unmerging `merged` out of `target` (src/core/issues/triage.ts): the hashes
 * the merge moved (`merged_from`) go back, with the events grouped under them, and what the merge
 * added to the target's counts is taken off again: the merged issue's own tag, hour and user rows
 * stayed behind at the merge, so they say what was added. Returns how many events moved back.
 * Events that arrived after the merge under the moved hashes move back too and count for the
 * merged issue; their tag and hour counts stay on the target (the merge's rows cannot tell them
 * apart), as do the last day's minute counts of frequency alerts.
 */
export async function moveMergedBack(trx: Kysely<DB>, merged: Issue, target: Issue): Promise<{ hashes: number; events: number }> {
  const hashes = (
    await trx
      .selectFrom("issue_hashes")
      .select("hash")
      .where("project_id", "=", merged.project_id)
      .where("issue_id", "=", target.id)
      .where("merged_from", "=", merged.id)
      .execute()
  ).map((h) => h.hash);
  if (hashes.length === 0) return { hashes: 0, events: 0 };
  await trx
    .updateTable("issue_hashes")
    .set({ issue_id: merged.id, merged_from: null })
    .where("project_id", "=", merged.project_id)
    .where("merged_from", "=", merged.id)
    .where("issue_id", "=", target.id)
    .execute();
  let events = 0;
  for (let i = 0; i < hashes.length; i += 500) {
    const chunk = hashes.slice(i, i + 500);
    const moved = await trx
      .updateTable("events")
      .set({ issue_id: merged.id })
      .where("issue_id", "=", target.id)
      .where("grouping_hash", "in", chunk)
      .executeTakeFirst();
    events += Number(moved.numUpdatedRows);
  }
  await subtractRows(trx, merged.id, target.id);
  // Events that arrived after the merge (received after its activity entry) count for it now;
  // the ones before are in its frozen times_seen already. Issue times are event timestamps in ms.
  const mergedAt = await trx
    .selectFrom("issue_activity")
    .select((eb) => eb.fn.max("created_at").as("at"))
    .where("issue_id", "=", merged.id)
    .where("type", "=", "merge")
    .executeTakeFirstOrThrow();
  const since = await trx
    .selectFrom("events")
    .select((eb) => [eb.fn.countAll<number | string>().as("n"), eb.fn.max("timestamp").as("last")])
    .where("issue_id", "=", merged.id)
    .where("received_at", ">", mergedAt.at === null ? Number.MAX_SAFE_INTEGER : Number(mergedAt.at))
    .executeTakeFirstOrThrow();
  const timesSeen = merged.times_seen + Number(since.n);
  const lastSeen = since.last === null ? merged.last_seen : Math.max(merged.last_seen, Math.round(Number(since.last) * 1000));
  await trx
    .updateTable("issues")
    .set({ merged_into_id: null, status: "unresolved", substatus: "ongoing", times_seen: timesSeen, last_seen: lastSeen })
    .where("id", "=", merged.id)
    .execute();
  const users = await trx
    .selectFrom("issue_users")
    .select((eb) => eb.fn.countAll<number | string>().as("n"))
    .where("issue_id", "=", target.id)
    .executeTakeFirstOrThrow();
  const remainingLast = await trx
    .selectFrom("events")
    .select((eb) => eb.fn.max("timestamp").as("last"))
    .where("issue_id", "=", target.id)
    .executeTakeFirstOrThrow();
  await trx
    .updateTable("issues")
    .set({
      times_seen: Math.max(0, target.times_seen - timesSeen),
      user_count: Number(users.n),
      ...(remainingLast.last !== null ? { last_seen: Math.round(Number(remainingLast.last) * 1000) } : {}),
    })
    .where("id", "=", target.id)
    .execute();
  return { hashes: hashes.length, events };
}

/** Takes the merged issue's tag and hour counts off the target, and the users the merge copied. */
async function subtractRows(trx: Kysely<DB>, fromId: number, targetId: number): Promise<void> {
  for (const t of await trx.selectFrom("issue_tags").selectAll().where("issue_id", "=", fromId).execute()) {
    const at = trx.updateTable("issue_tags").where("issue_id", "=", targetId).where("key", "=", t.key).where("value", "=", t.value);
    await at.set((eb) => ({ times_seen: eb("times_seen", "-", t.times_seen) })).execute();
  }
  await trx.deleteFrom("issue_tags").where("issue_id", "=", targetId).where("times_seen", "<=", 0).execute();
  for (const h of await trx.selectFrom("issue_hourly").selectAll().where("issue_id", "=", fromId).execute()) {
    await trx
      .updateTable("issue_hourly")
      .set((eb) => ({ count: eb("count", "-", h.count) }))
      .where("issue_id", "=", targetId)
      .where("hour", "=", h.hour)
      .execute();
  }
  await trx.deleteFrom("issue_hourly").where("issue_id", "=", targetId).where("count", "<=", 0).execute();
  // A user row the merge copied has the merged issue's first_seen; one the target had already keeps its own.
  for (const u of await trx.selectFrom("issue_users").selectAll().where("issue_id", "=", fromId).execute()) {
    await trx
      .deleteFrom("issue_users")
      .where("issue_id", "=", targetId)
      .where("user_key", "=", u.user_key)
      .where("first_seen", "=", u.first_seen)
      .execute();
  }
}
