import type { Migration } from "./helpers";

/**
 * The activity log becomes the outbox's first consumer (src/core/issues/activity.ts). Changes
 * already in the outbox had their activity rows written directly next to them, so the consumer
 * starts after them instead of writing those rows a second time.
 */
export const m0014: Migration = {
  async up(db) {
    const counter = (await db.selectFrom("outbox_counter").select("seq").where("id", "=", 1).executeTakeFirst()) as
      { seq: number | string } | undefined;
    await db
      .insertInto("outbox_positions")
      .values({ consumer: "activity", seq: Number(counter?.seq ?? 0), updated_at: Date.now() })
      .onConflict((oc) => oc.column("consumer").doNothing())
      .execute();
  },
};
