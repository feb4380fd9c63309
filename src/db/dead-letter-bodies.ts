import { sql, type Kysely } from "kysely";
import type { Dialect } from "./connect";
import type { DB } from "./schema";

/**
 * Empties the raw bodies of dead letters set aside before `cutoff` (ms); returns how many. On
 * PostgreSQL the old row versions are vacuumed at once, so their space (TOAST included) is freed
 * for reuse rather than kept until autovacuum comes by. SQLite needs nothing more: retention's
 * give-back, right after, moves live pages over the freed ones or cuts them off the file.
 */
export async function emptyDeadLetterBodies(db: Kysely<DB>, dialect: Dialect, cutoff: number): Promise<number> {
  const result = await db
    .updateTable("dead_letters")
    .set({ body: Buffer.alloc(0) })
    .where("created_at", "<", cutoff)
    .where((eb) => eb(eb.fn("length", ["body"]), ">", 0))
    .executeTakeFirst();
  const emptied = Number(result.numUpdatedRows);
  if (emptied > 0 && dialect === "postgres") await sql`vacuum dead_letters`.execute(db);
  return emptied;
}
