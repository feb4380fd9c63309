/**
 * The request path's side of the ingest queue: where QueueWriter (src/core/ingest/queue-writer.ts)
 * group-commits accepted envelopes and, on SQLite, deletes the ones the digest has finished
 * with. Implemented by src/db/ingest-queue.ts over the queue file (SQLite) or the main database
 * (PostgreSQL, appending with COPY: docs/decisions/0028-postgres-queue-copy-and-named-inserts.md).
 */

/** One accepted envelope, as queued. */
export interface QueueRow {
  project_id: number;
  key_id: number;
  endpoint: "envelope" | "store";
  received_at: number;
  body: Buffer;
}

export interface IngestQueue {
  /** Appends the rows in one statement, all or none. */
  append(rows: readonly QueueRow[]): Promise<void>;
  /** Deletes the rows with ids up to `upTo` and appends `rows` (possibly none), in one transaction. */
  forgetAndAppend(upTo: number, rows: readonly QueueRow[]): Promise<void>;
  /** Whether a write failed only because another connection holds the queue's write lock for now; trying again is safe. */
  isBusy(error: unknown): boolean;
  /** Whether a write failed for lack of space. */
  isFull(error: unknown): boolean;
  /** Pages deleted rows freed that the queue's file has not given back yet (SQLite; 0 elsewhere). */
  freePages(): Promise<number>;
  /** Gives up to `pages` freed pages back to the file system. */
  givePagesBack(pages: number): Promise<void>;
  /** Empties the queue file's write-ahead log; false when a reader still needs it. */
  truncateLog(): Promise<boolean>;
}
