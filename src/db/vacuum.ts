import { type Kysely, sql } from "kysely";

/**
 * SQLite's incremental auto-vacuum (the files are created with `auto_vacuum = INCREMENTAL`,
 * src/db/queue.ts), taken in bounded steps by its callers: one step moves pages while it holds
 * the file's write lock, and its cost grows with the file.
 */

/** Pages on the file's freelist: freed by deletions, not yet given back to the file system. */
export async function freePages<DB>(db: Kysely<DB>): Promise<number> {
  const result = await sql<{ freelist_count: number }>`pragma freelist_count`.execute(db);
  return Number(result.rows[0]?.freelist_count ?? 0);
}

/** The file's page size in bytes (the main file's and the queue file's differ in files made before decision 0035). */
export async function pageBytes<DB>(db: Kysely<DB>): Promise<number> {
  const result = await sql<{ page_size: number }>`pragma page_size`.execute(db);
  return Number(result.rows[0]?.page_size ?? 4096);
}

/** Gives up to `pages` freed pages back to the file system (src/db/connect.ts runs the pragma to completion). */
export async function vacuumPages<DB>(db: Kysely<DB>, pages: number): Promise<void> {
  await sql`pragma incremental_vacuum(${sql.lit(pages)})`.execute(db);
}
