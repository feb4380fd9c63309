import SQLite from "better-sqlite3";
import { sql, type Kysely } from "kysely";
import type { Store } from "./store";
import type { DB, QueueDB } from "./schema";
import { pageBytes } from "./vacuum";

/**
 * On SQLite the ingest queue lives in a file of its own (`<data>/telltale-queue.sqlite`), so
 * that the request path's inserts never wait for the digest's write transactions on the main
 * file: SQLite has one writer per file, and a waiting better-sqlite3 call blocks the event
 * loop (docs/decisions/0005-sqlite-queue-file-and-request-path-first.md). The digest records in the main file how far
 * it got (`digest_progress`), in the same transaction as what it wrote, and deletes the queue
 * rows afterwards; ids only grow (AUTOINCREMENT), so rows at or below the mark are done.
 */
export function queueFileOf(mainFile: string): string {
  if (mainFile === ":memory:") return mainFile;
  return mainFile.endsWith(".sqlite") ? `${mainFile.slice(0, -".sqlite".length)}-queue.sqlite` : `${mainFile}-queue`;
}

/**
 * The pragmas both SQLite files share. WAL lets readers run beside the writer; busy_timeout
 * makes two threads or processes wait for each other instead of failing with SQLITE_BUSY;
 * incremental auto-vacuum lets freed pages be given back to the file system (PRAGMA
 * incremental_vacuum: the retention job on the main file, the request path on the queue file
 * once it is idle). Auto-vacuum only takes effect on a new, empty file.
 */
export function applySqlitePragmas(database: SQLite.Database): void {
  database.pragma("auto_vacuum = INCREMENTAL");
  database.pragma("journal_mode = WAL");
  database.pragma("busy_timeout = 5000");
  database.pragma("synchronous = NORMAL");
}

/**
 * The queue file's page size: its rows are whole envelopes (~17 KiB on average in the bench's
 * mix), each spread over overflow pages that are written when it is queued and freed when it is
 * deleted. With 16 KiB pages instead of SQLite's 4 KiB, inserting a group of 64 and deleting an
 * older one took about half the CPU (36 → 19 µs per row, docs/benchmarks.md), on
 * the request thread. A new file gets it at once; a file made with other pages keeps them until a
 * server's start rewrites it (`upgradeQueuePages`, below).
 */
export const QUEUE_PAGE_BYTES = 16 * 1024;

export function openQueueDatabase(file: string): SQLite.Database {
  const database = new SQLite(file);
  // Before anything writes the file's header (journal_mode = WAL does).
  database.pragma(`page_size = ${QUEUE_PAGE_BYTES}`);
  applySqlitePragmas(database);
  // Digested envelopes carry whatever secrets their events held: their pages are zeroed when the
  // request path deletes the rows, instead of lingering on the freelist until later traffic
  // reuses them (docs/decisions/0038-no-secrets-at-rest-in-queue-and-dead-letters.md).
  database.pragma("secure_delete = ON");
  // A WAL that grew under load (checkpoints cannot finish while writers and readers keep it
  // busy) is cut back to this size once it restarts.
  database.pragma(`journal_size_limit = ${64 * 1024 * 1024}`);
  database.exec(`CREATE TABLE IF NOT EXISTS ingest_queue (
    id INTEGER PRIMARY KEY AUTOINCREMENT,
    project_id INTEGER NOT NULL,
    key_id INTEGER NOT NULL,
    endpoint TEXT NOT NULL,
    received_at INTEGER NOT NULL,
    body BLOB NOT NULL
  )`);
  return database;
}

/** A queue file holding more than this (after its digested rows are deleted) keeps its pages until a later start. */
export const QUEUE_UPGRADE_MAX_BYTES = 32 * 1024 * 1024;

export type QueuePagesUpgrade =
  | { upgraded: true; fromPageBytes: number; ms: number }
  | { upgraded: false; reason: "current" | "backlog" | "in_use"; pageBytes: number }
  | { upgraded: false; reason: "failed"; pageBytes: number; error: string };

/**
 * Rewrites a queue file made before QUEUE_PAGE_BYTES (SQLite's 4 KiB pages) with that page
 * size, at start, before anything else opens it (src/server/serve.ts): SQLite changes an
 * existing file's page size only in a VACUUM, and only outside WAL mode, which needs the file
 * to itself. The digested rows are deleted first; what is left is rewritten only while small
 * (QUEUE_UPGRADE_MAX_BYTES), so that a restart with a backlog is not held up: that file is
 * rewritten at a later start. Measured: a 977 MiB file of freed pages took 0.44 s, one with
 * 50 MiB of rows 1.1 s, once. Another connection to the file (a CLI command,
 * a second server) makes the journal-mode change fail at once (the queue writer's connection
 * waits for no lock, src/db/connect.ts): the file is left as it was. The VACUUM keeps every
 * row, its id and the id sequence, and applies incremental auto-vacuum to a file made without it.
 */
export async function upgradeQueuePages(store: Store, maxBytes = QUEUE_UPGRADE_MAX_BYTES): Promise<QueuePagesUpgrade> {
  if (store.dialect !== "sqlite") return { upgraded: false, reason: "current", pageBytes: 0 };
  const pageBytes = await pragmaNumber(store.queue, "page_size");
  if (pageBytes === QUEUE_PAGE_BYTES) return { upgraded: false, reason: "current", pageBytes };
  const started = performance.now();
  await store.queue
    .deleteFrom("ingest_queue")
    .where("id", "<=", await digestedUpTo(store.db))
    .execute();
  const live = (await pragmaNumber(store.queue, "page_count")) - (await pragmaNumber(store.queue, "freelist_count"));
  if (live * pageBytes > maxBytes) return { upgraded: false, reason: "backlog", pageBytes };
  try {
    await sql`pragma journal_mode = DELETE`.execute(store.queue);
  } catch (error) {
    if (isSqliteBusy(error)) return { upgraded: false, reason: "in_use", pageBytes };
    throw error;
  }
  let failure: string | null = null;
  try {
    await sql.raw(`pragma page_size = ${QUEUE_PAGE_BYTES}`).execute(store.queue);
    await sql`vacuum`.execute(store.queue);
  } catch (error) {
    // A VACUUM that fails (a full disk) leaves the file as it was: the server starts with it.
    failure = error instanceof Error ? error.message : String(error);
  } finally {
    await sql`pragma journal_mode = WAL`.execute(store.queue);
  }
  if (failure !== null) return { upgraded: false, reason: "failed", pageBytes, error: failure };
  return { upgraded: true, fromPageBytes: pageBytes, ms: performance.now() - started };
}

async function pragmaNumber(db: Kysely<QueueDB>, name: "page_size" | "page_count" | "freelist_count"): Promise<number> {
  const { rows } = await sql.raw<Record<string, number>>(`pragma ${name}`).execute(db);
  return Number(rows[0]?.[name] ?? 0);
}

/** The newest queue id whose digest is committed (0 before the first). */
export async function digestedUpTo(db: Kysely<DB>): Promise<number> {
  const row = await db.selectFrom("digest_progress").select("last_queue_id").where("id", "=", 1).executeTakeFirst();
  return row ? Number(row.last_queue_id) : 0;
}

/**
 * Run after migrations (SQLite): if the queue file is younger than the main file's progress
 * mark (deleted, or restored from an older backup), its ids start past the mark again, so
 * that no new envelope counts as digested.
 */
export async function adoptQueue(store: Store): Promise<void> {
  if (store.dialect !== "sqlite") return;
  const done = await digestedUpTo(store.db);
  if (done === 0) return;
  const seq = await sql<{ seq: number }>`select seq from sqlite_sequence where name = 'ingest_queue'`.execute(store.queue);
  const current = Number(seq.rows[0]?.seq ?? 0);
  if (current >= done) return;
  if (seq.rows.length === 0) await sql`insert into sqlite_sequence (name, seq) values ('ingest_queue', ${done})`.execute(store.queue);
  else await sql`update sqlite_sequence set seq = ${done} where name = 'ingest_queue'`.execute(store.queue);
}

/** A RESTART checkpoint holds the request path's inserts while it syncs: rare, so the WAL may grow this far. */
const WAL_RESTART_BYTES = 1024 * 1024 * 1024;

/**
 * The digest's upkeep of the queue file's WAL (SQLite), which takes no writer's lock: a PASSIVE
 * checkpoint, and a RESTART once the WAL passes 1 GiB, since under steady writes a passive
 * checkpoint never lets it start over. Once one has copied the whole WAL, the request path's
 * next write starts it over and cuts it back to `journal_size_limit`. Nothing here writes a
 * page of the queue: the request path is its only writer (decision 0005), and it retries a
 * write that a RESTART holds up on a timer (src/core/ingest/queue-writer.ts).
 */
export async function checkpointQueue(queue: Kysely<QueueDB>): Promise<void> {
  const result = await sql<{ log: number }>`pragma wal_checkpoint(PASSIVE)`.execute(queue);
  if (Number(result.rows[0]?.log ?? 0) * (await pageBytes(queue)) > WAL_RESTART_BYTES)
    await sql`pragma wal_checkpoint(RESTART)`.execute(queue);
}

/**
 * Copies the queue file's whole WAL into the file and cuts it to zero bytes, so that the frames
 * of digested envelopes do not wait there for later writes to overwrite them. Run by the request
 * path once it is idle and has given freed pages back; false when a reader (the digest) kept it
 * from finishing, to be tried again at the next idle step.
 */
export async function truncateQueueWal(queue: Kysely<QueueDB>): Promise<boolean> {
  const result = await sql<{ busy: number }>`pragma wal_checkpoint(TRUNCATE)`.execute(queue);
  return Number(result.rows[0]?.busy ?? 0) === 0;
}

/**
 * SQLite refused a statement because another connection holds the lock it needs (SQLITE_BUSY
 * and its extended codes), after the connection's busy timeout, if any, ran out.
 */
export function isSqliteBusy(error: unknown): boolean {
  if (!(error instanceof Error) || !("code" in error)) return false;
  const code = (error as { code?: unknown }).code;
  return typeof code === "string" && (code === "SQLITE_BUSY" || code.startsWith("SQLITE_BUSY_"));
}

/** Envelopes accepted and not yet digested. */
export async function queuedCount(store: Store): Promise<number> {
  const done = store.dialect === "sqlite" ? await digestedUpTo(store.db) : 0;
  const queued = await store.queue
    .selectFrom("ingest_queue")
    .select((eb) => eb.fn.countAll<number>().as("n"))
    .where("id", ">", done)
    .executeTakeFirstOrThrow();
  if (store.dialect === "postgres") return Number(queued.n);
  // Envelopes an earlier version queued in the main file are digested first.
  const legacy = await store.db
    .selectFrom("ingest_queue")
    .select((eb) => eb.fn.countAll<number>().as("n"))
    .executeTakeFirstOrThrow();
  return Number(queued.n) + Number(legacy.n);
}
