import type { Kysely } from "kysely";
import type { IngestQueue, QueueRow } from "../core/ports/ingest-queue";
import { insertRows } from "./bulk-insert";
import type { Dialect } from "./connect";
import { isSqliteBusy, truncateQueueWal } from "./queue";
import type { QueueDB } from "./schema";
import { isStorageFull } from "./storage-full";
import { freePages, vacuumPages } from "./vacuum";

/**
 * The ingest queue as the request path writes it. `copy` (PostgreSQL, Store.appendToQueue)
 * appends a group with COPY; without it a group is one INSERT whose text Kysely built once for
 * its row count (groups stay within bulk-insert's MAX_CHUNK rows). Giving pages back is SQLite's
 * (the queue file's incremental vacuum); PostgreSQL reuses the space of deleted rows itself.
 */
export class KyselyIngestQueue implements IngestQueue {
  constructor(
    private readonly queue: Kysely<QueueDB>,
    private readonly dialect: Dialect,
    private readonly copy?: (rows: readonly QueueRow[]) => Promise<void>,
  ) {}

  async append(rows: readonly QueueRow[]): Promise<void> {
    if (rows.length === 0) return;
    if (this.copy) return this.copy(rows);
    await insertRows<QueueDB, "ingest_queue">(this.queue, "ingest_queue", rows, undefined, { exact: true });
  }

  async forgetAndAppend(upTo: number, rows: readonly QueueRow[]): Promise<void> {
    await this.queue.transaction().execute(async (trx) => {
      await trx.deleteFrom("ingest_queue").where("id", "<=", upTo).execute();
      if (rows.length > 0) await insertRows<QueueDB, "ingest_queue">(trx, "ingest_queue", rows, undefined, { exact: true });
    });
  }

  isBusy(error: unknown): boolean {
    return isSqliteBusy(error);
  }

  isFull(error: unknown): boolean {
    return isStorageFull(error);
  }

  async freePages(): Promise<number> {
    return this.dialect === "sqlite" ? freePages(this.queue) : 0;
  }

  async givePagesBack(pages: number): Promise<void> {
    if (this.dialect === "sqlite") await vacuumPages(this.queue, pages);
  }

  async truncateLog(): Promise<boolean> {
    return this.dialect === "sqlite" ? truncateQueueWal(this.queue) : true;
  }
}
