import { sql, type Kysely } from "kysely";
import type { Dialect } from "./connect";
import type { DB } from "./schema";

/**
 * A transaction that reads, then writes. On SQLite it begins IMMEDIATE: a deferred
 * transaction that first reads and then writes fails at once with SQLITE_BUSY when another
 * connection (another thread) wrote in between, while IMMEDIATE takes the write lock first
 * and waits out `busy_timeout` like every other writer.
 */
export async function writeTransaction<T>(db: Kysely<DB>, dialect: Dialect, work: (trx: Kysely<DB>) => Promise<T>): Promise<T> {
  if (dialect === "postgres") return db.transaction().execute(work);
  return db.connection().execute(async (conn) => {
    await sql`BEGIN IMMEDIATE`.execute(conn);
    try {
      const result = await work(conn);
      await sql`COMMIT`.execute(conn);
      return result;
    } catch (error) {
      await sql`ROLLBACK`.execute(conn);
      throw error;
    }
  });
}
