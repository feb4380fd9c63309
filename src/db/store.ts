import type { Insertable, Kysely } from "kysely";
import type { DB, QueueDB } from "./schema";

export type Dialect = "sqlite" | "postgres";

/** An open database: the main one, the ingest queue and how to close both (src/db/connect.ts opens it). */
export interface Store {
  db: Kysely<DB>;
  /** The ingest queue: a file of its own on SQLite (src/db/queue.ts), the main database on PostgreSQL. */
  queue: Kysely<QueueDB>;
  /** PostgreSQL: appends rows to the queue with COPY (src/db/queue-copy.ts). */
  appendToQueue?: (rows: readonly Insertable<QueueDB["ingest_queue"]>[]) => Promise<void>;
  dialect: Dialect;
  /** PostgreSQL only: the schema every table lives in, when not the default. */
  schema?: string;
  close(): Promise<void>;
}
