/**
 * PostgreSQL: the request path's queue rows written with `COPY … FROM STDIN (FORMAT binary)`
 * instead of a multi-row INSERT. An INSERT binds every body as a parameter, and node-postgres
 * builds each Bind message in a buffer that starts at a few hundred bytes for every statement
 * and grows by copying: for a group of queued envelopes that was three copies of every body
 * into freshly allocated memory, 37 % of the writing process's CPU (`npm run bench:digest --
 * --postgres --kind mix --queue-writes`; docs/benchmarks.md, 2026-11-27 fourth session). A
 * COPY sends the rows as they are, a few envelopes per message, and the database skips parsing
 * and planning an INSERT altogether.
 */
import type { Insertable } from "kysely";
import type pg from "pg";
import { from as copyFrom } from "pg-copy-streams";
import type { QueueDB } from "./schema";

type QueueRow = Insertable<QueueDB["ingest_queue"]>;

const COPY_QUEUE = "copy ingest_queue (project_id, key_id, endpoint, received_at, body) from stdin (format binary)";

/** The binary format's header: its signature, then no flags and no header extension. */
const HEADER = Buffer.concat([Buffer.from("PGCOPY\n\xff\r\n\0", "latin1"), Buffer.alloc(8)]);
/** The end of the data: a tuple with -1 fields. */
const TRAILER = Buffer.from([0xff, 0xff]);

/** Bytes gathered into one message to the server: few writes to the socket, one copy of each body. */
const CHUNK_BYTES = 64 * 1024;

/** A row's fields up to its body's bytes: field count, then each field's length and value (network byte order). */
function rowPrefix(row: QueueRow): Buffer {
  const endpoint = Buffer.from(row.endpoint, "utf8");
  const prefix = Buffer.allocUnsafe(2 + 8 + 8 + 4 + endpoint.length + 12 + 4);
  let at = prefix.writeInt16BE(5, 0);
  at = prefix.writeInt32BE(4, at);
  at = prefix.writeInt32BE(row.project_id, at);
  at = prefix.writeInt32BE(4, at);
  at = prefix.writeInt32BE(row.key_id, at);
  at = prefix.writeInt32BE(endpoint.length, at);
  at += endpoint.copy(prefix, at);
  at = prefix.writeInt32BE(8, at);
  at = prefix.writeBigInt64BE(BigInt(row.received_at), at);
  prefix.writeInt32BE(row.body.length, at);
  return prefix;
}

/** The COPY data for `rows`, in chunks of about CHUNK_BYTES (a body larger than that is a chunk with its prefix). */
export function copyChunks(rows: readonly QueueRow[]): Buffer[] {
  const chunks: Buffer[] = [];
  let pending: Buffer[] = [HEADER];
  let bytes = HEADER.length;
  const flush = () => {
    chunks.push(pending.length === 1 ? pending[0]! : Buffer.concat(pending, bytes));
    pending = [];
    bytes = 0;
  };
  for (const row of rows) {
    const prefix = rowPrefix(row);
    pending.push(prefix, row.body);
    bytes += prefix.length + row.body.length;
    if (bytes >= CHUNK_BYTES) flush();
  }
  pending.push(TRAILER);
  bytes += TRAILER.length;
  flush();
  return chunks;
}

/** Appends the rows to the ingest queue in one COPY (atomic: all of them or none), on a connection of `pool`. */
export async function copyIntoQueue(pool: pg.Pool, rows: readonly QueueRow[]): Promise<void> {
  const client = await pool.connect();
  let failure: unknown;
  try {
    const stream = client.query(copyFrom(COPY_QUEUE));
    await new Promise<void>((resolve, reject) => {
      stream.on("error", reject);
      stream.on("finish", resolve);
      for (const chunk of copyChunks(rows)) stream.write(chunk);
      stream.end();
    });
  } catch (error) {
    failure = error;
    throw error;
  } finally {
    // A connection whose COPY failed is not given back to the pool as it is.
    client.release(failure instanceof Error ? failure : undefined);
  }
}
