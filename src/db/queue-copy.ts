/**
 * PostgreSQL: the request path's queue rows written with `COPY … FROM STDIN (FORMAT binary)`
 * instead of a multi-row INSERT, sent in one write.
 *
 * An INSERT binds every body as a parameter, and node-postgres builds each Bind message in a
 * buffer that starts at a few hundred bytes for every statement and grows by copying: every
 * body was copied about three times into freshly allocated memory, 37 % of the writing
 * process's CPU. A COPY sends the rows as they are. It is pipelined: the COPY command, its data
 * and its end go out in one `writev` before the server has answered the command, because every
 * separate write to a local socket wakes the database's backend, and a profile of the first
 * version (which waited for the server's CopyInResponse and wrote each piece on its own) had
 * those writes at a third of the request thread's time (docs/benchmarks.md).
 * Should the command itself fail, the server ignores the copy messages that follow it
 * (the protocol's rule for a COPY that failed) and answers the error, then ReadyForQuery.
 */
import type { Insertable } from "kysely";
import type pg from "pg";
import { CopySubmittable } from "./copy-submittable";
import type { QueueDB } from "./schema";

type QueueRow = Insertable<QueueDB["ingest_queue"]>;

const COPY_QUEUE = "copy ingest_queue (project_id, key_id, endpoint, received_at, body) from stdin (format binary)";

/** A frontend message: its type byte, its length (itself included), then `body`'s bytes after. */
function message(type: string, bodyLength: number, extra = 0): Buffer {
  const out = Buffer.allocUnsafe(5 + extra);
  out.write(type, 0, "latin1");
  out.writeInt32BE(4 + bodyLength, 1);
  return out;
}

/** The Query message that starts the COPY. */
const QUERY = (() => {
  const text = Buffer.from(`${COPY_QUEUE}\0`, "utf8");
  return Buffer.concat([message("Q", text.length), text]);
})();

/** CopyData with the binary format's header: its signature, then no flags and no header extension. */
const FILE_HEADER = (() => {
  const header = Buffer.concat([Buffer.from("PGCOPY\n\xff\r\n\0", "latin1"), Buffer.alloc(8)]);
  return Buffer.concat([message("d", header.length), header]);
})();

/** CopyData with the end of the data (a tuple of -1 fields), then CopyDone. */
const END = Buffer.concat([message("d", 2), Buffer.from([0xff, 0xff]), message("c", 0)]);

/**
 * A row as CopyData up to its body's bytes: the message's header, then the tuple's field count
 * and each field's length and value in network byte order; the body follows as it is.
 */
function rowHead(row: QueueRow): Buffer {
  const endpoint = Buffer.from(row.endpoint, "utf8");
  const fields = 2 + 8 + 8 + 4 + endpoint.length + 12 + 4;
  const head = message("d", fields + row.body.length, fields);
  let at = head.writeInt16BE(5, 5);
  at = head.writeInt32BE(4, at);
  at = head.writeInt32BE(row.project_id, at);
  at = head.writeInt32BE(4, at);
  at = head.writeInt32BE(row.key_id, at);
  at = head.writeInt32BE(endpoint.length, at);
  at += endpoint.copy(head, at);
  at = head.writeInt32BE(8, at);
  at = head.writeBigInt64BE(BigInt(row.received_at), at);
  head.writeInt32BE(row.body.length, at);
  return head;
}

/** Every byte sent for `rows`, in order: the COPY command, the data, its end (exported for tests). */
export function copyMessages(rows: readonly QueueRow[]): Buffer[] {
  const out: Buffer[] = [QUERY, FILE_HEADER];
  for (const row of rows) out.push(rowHead(row), row.body);
  out.push(END);
  return out;
}

/** The COPY as node-postgres runs a query: `submit` writes it all at once. */
class QueueCopy extends CopySubmittable<void> {
  constructor(private readonly rows: readonly QueueRow[]) {
    super();
  }

  submit(connection: pg.Connection): void {
    const out = connection.stream;
    out.cork();
    for (const part of copyMessages(this.rows)) out.write(part);
    out.uncork();
  }

  /** The data is already on its way: node-postgres's default here would cancel the COPY. */
  override handleCopyInResponse(): void {}

  protected result(): void {}
}

/** Appends the rows to the ingest queue in one COPY (atomic: all of them or none) on `client`. */
export function copyRows(client: pg.ClientBase, rows: readonly QueueRow[]): Promise<void> {
  return client.query(new QueueCopy(rows)).done;
}

/** `copyRows` on a connection of `pool`. */
export async function copyIntoQueue(pool: pg.Pool, rows: readonly QueueRow[]): Promise<void> {
  const client = await pool.connect();
  let failure: Error | undefined;
  try {
    await copyRows(client, rows);
  } catch (error) {
    failure = error instanceof Error ? error : new Error(String(error));
    throw error;
  } finally {
    // A connection whose COPY failed is closed rather than given back as it is.
    client.release(failure);
  }
}
