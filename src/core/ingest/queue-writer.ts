import { sql, type Insertable, type Kysely } from "kysely";
import type { DB, QueueDB } from "../../db/schema";
import { insertRows, MAX_CHUNK } from "../../db/bulk-insert";
import { GroupCommit } from "./group-commit";

/** Pages (4 KiB) returned per deletion: ~4 MiB, well under a millisecond's work. */
const VACUUM_PAGES = 1024;
/**
 * At most one such deletion's vacuum this often: under load the inserts reuse freed pages
 * anyway, and a vacuum after every group commit cost the request thread 5 % of its time (issue 11).
 */
const VACUUM_EVERY_MS = 1000;

/** Rows per group commit: one INSERT statement each (at most MAX_CHUNK rows). */
const GROUP_ROWS = Math.min(128, MAX_CHUNK);

export type QueueRow = Insertable<DB["ingest_queue"]>;

/**
 * The request path's writes to the ingest queue: rows group-committed (src/core/ingest/group-commit.ts)
 * and, on SQLite, the deletion of rows the digest has finished with. There the digest only
 * reads the queue file and reports how far it got (`forget`); deleting in the same
 * transactions as the inserts keeps the request path the file's only writer, so an insert
 * never waits for another thread's lock (docs/decisions/0005-sqlite-queue-file-and-request-path-first.md).
 */
export class QueueWriter {
  private readonly group: GroupCommit<QueueRow>;
  private forgetUpTo = 0;
  private forgotten = 0;
  private lastVacuum = 0;

  /**
   * `vacuum` (SQLite): give freed pages of the queue file back after each deletion (incremental
   * auto-vacuum). `concurrency`: groups written at once (see GroupCommit; PostgreSQL overlaps
   * several commits, each on its own pooled connection). `append`: how a group is written when
   * nothing is to be deleted with it (PostgreSQL's COPY, Ctx.appendToQueue); an INSERT without it.
   */
  constructor(
    private readonly queue: Kysely<QueueDB>,
    private readonly vacuum = false,
    concurrency = 1,
    private readonly append?: (rows: readonly QueueRow[]) => Promise<void>,
  ) {
    this.group = new GroupCommit((rows) => this.write(rows), GROUP_ROWS, concurrency);
  }

  /** Resolves once the row is committed. */
  add(row: QueueRow): Promise<void> {
    return this.group.add(row);
  }

  /** Queue rows with ids at or below `upTo` are digested: they go with the next write, or soon if none comes. */
  forget(upTo: number): void {
    if (upTo <= this.forgetUpTo) return;
    this.forgetUpTo = upTo;
    this.group.nudge();
  }

  private async write(rows: readonly QueueRow[]): Promise<void> {
    const upTo = this.forgetUpTo;
    // One COPY per group (PostgreSQL), or one INSERT (GROUP_ROWS ≤ MAX_CHUNK) whose text Kysely built once for its row count.
    if (upTo <= this.forgotten) {
      if (rows.length > 0 && this.append) await this.append(rows);
      else if (rows.length > 0) await insertRows<QueueDB, "ingest_queue">(this.queue, "ingest_queue", rows, undefined, { exact: true });
      return;
    }
    await this.queue.transaction().execute(async (trx) => {
      await trx.deleteFrom("ingest_queue").where("id", "<=", upTo).execute();
      if (rows.length > 0) await insertRows<QueueDB, "ingest_queue">(trx, "ingest_queue", rows, undefined, { exact: true });
    });
    this.forgotten = upTo;
    if (this.vacuum && Date.now() - this.lastVacuum >= VACUUM_EVERY_MS) {
      // Freed pages go back to the file system a few at a time, so no single write stalls.
      this.lastVacuum = Date.now();
      await sql`pragma incremental_vacuum(${sql.lit(VACUUM_PAGES)})`.execute(this.queue);
    }
  }
}
