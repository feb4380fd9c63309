import { sql, type Kysely } from "kysely";
import type { DB } from "./schema";

export interface AttemptCount {
  /** Attempts in the current window, this one included. */
  attempts: number;
  windowStart: number;
}

/**
 * Counts one attempt against `key` and answers the count, in one statement: an
 * `INSERT … ON CONFLICT DO UPDATE` is atomic on PostgreSQL even under concurrent inserts
 * from several processes (https://www.postgresql.org/docs/current/sql-insert.html#SQL-ON-CONFLICT)
 * and SQLite runs it under its single write lock (https://www.sqlite.org/lang_upsert.html).
 * Every caller therefore sees a distinct count, so no more than `max` of them can be under
 * `max`, however many arrive together. A window older than `windowMs` starts again at 1.
 */
export async function countAttempt(db: Kysely<DB>, key: string, now: number, windowMs: number): Promise<AttemptCount> {
  const expired = sql<boolean>`login_attempts.window_start <= ${now - windowMs}`;
  const row = await db
    .insertInto("login_attempts")
    .values({ key, attempts: 1, window_start: now })
    .onConflict((oc) =>
      oc.column("key").doUpdateSet({
        // Both expressions read the row as it was before this update.
        attempts: sql<number>`case when ${expired} then 1 else login_attempts.attempts + 1 end`,
        window_start: sql<number>`case when ${expired} then ${now} else login_attempts.window_start end`,
      }),
    )
    .returning(["attempts", "window_start"])
    .executeTakeFirstOrThrow();
  return { attempts: Number(row.attempts), windowStart: Number(row.window_start) };
}

/** Gives back an attempt that turned out right, unless its window has since started again. */
export async function refundAttempt(db: Kysely<DB>, key: string, windowStart: number): Promise<void> {
  await db
    .updateTable("login_attempts")
    .set({ attempts: sql<number>`attempts - 1` })
    .where("key", "=", key)
    .where("window_start", "=", windowStart)
    .where("attempts", ">", 0)
    .execute();
}

/** Drops counters whose window has passed; they would start again at 1 anyway. */
export async function forgetExpiredAttempts(db: Kysely<DB>, now: number, windowMs: number): Promise<void> {
  await db
    .deleteFrom("login_attempts")
    .where("window_start", "<=", now - windowMs)
    .execute();
}
