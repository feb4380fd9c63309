/**
 * PostgreSQL: `COPY (select …) TO STDOUT (FORMAT binary)` through node-postgres, whose own
 * query path cannot run it. The digest reads the bodies of the queue rows it claimed this way.
 *
 * A `bytea` column read by a SELECT comes back as text: the database writes each body as hex
 * (twice its size), and node-postgres turns the hex into a string and the string into a Buffer
 * — a profile of the PostgreSQL digest under load had 5 % of its thread there
 * (`parseDataRowMessage`, docs/benchmarks.md). A binary COPY sends
 * every field as its bytes, and the client only copies them out of its read buffer.
 *
 * COPY takes no parameters: its text must be complete, so callers build it from values they
 * have checked (the digest: ids the database gave it).
 */
import type pg from "pg";
import { CopySubmittable } from "./copy-submittable";

/** A tuple as COPY sent it: each field's bytes, or null for NULL. */
export type CopiedTuple = (Buffer | null)[];

/** Whether `text` is a binary COPY to the client (what PreparingClient runs here). */
export const isBinaryCopyOut = (text: string): boolean => /^copy\s*\(.*\)\s*to\s+stdout\s*\(\s*format\s+binary\s*\)\s*$/is.test(text);

/** The binary format's file header: its signature, then a flags field and the header extension's length. */
const SIGNATURE = Buffer.from("PGCOPY\n\xff\r\n\0", "latin1");
const HEADER_LENGTH = SIGNATURE.length + 8;

/**
 * Reads the binary COPY format from the CopyData chunks of one COPY, whatever their
 * boundaries. PostgreSQL sends each tuple in a CopyData of its own, so a tuple is split across
 * chunks only by a server that chooses to; the bytes left over are then kept until the rest
 * arrives. Field values are copied: a chunk is a view of node-postgres's read buffer, which it
 * reuses.
 */
export class BinaryTupleReader {
  readonly tuples: CopiedTuple[] = [];
  private pending: Buffer | null = null;
  private headerRead = false;
  private ended = false;

  push(chunk: Buffer): void {
    const buf = this.pending ? Buffer.concat([this.pending, chunk]) : chunk;
    let at = this.headerRead ? 0 : this.header(buf);
    if (at < 0) return this.keep(buf, 0);
    while (!this.ended && buf.length - at >= 2) {
      const count = buf.readInt16BE(at);
      if (count === -1) {
        this.ended = true;
        at += 2;
        break;
      }
      if (count < 0) throw new Error(`binary COPY: a tuple of ${count} fields`);
      const tuple = readTuple(buf, at + 2, count);
      if (!tuple) break;
      this.tuples.push(tuple.fields);
      at = tuple.end;
    }
    if (this.ended && at < buf.length) throw new Error("binary COPY: data after the end of the data");
    this.keep(buf, at);
  }

  /** Throws unless the data was whole: the header, tuples, then the end mark, nothing left over. */
  finish(): CopiedTuple[] {
    if (!this.ended || this.pending) throw new Error("binary COPY: the data ended before its end mark");
    return this.tuples;
  }

  /** The offset after the file header, or -1 until all of it has arrived. */
  private header(buf: Buffer): number {
    if (buf.length < HEADER_LENGTH) return -1;
    if (!buf.subarray(0, SIGNATURE.length).equals(SIGNATURE)) throw new Error("binary COPY: not the binary format's signature");
    const end = HEADER_LENGTH + buf.readUInt32BE(SIGNATURE.length + 4);
    if (buf.length < end) return -1;
    this.headerRead = true;
    return end;
  }

  private keep(buf: Buffer, from: number): void {
    this.pending = from < buf.length ? Buffer.from(buf.subarray(from)) : null;
  }
}

/** The tuple's `count` fields from `at`, or null when they have not all arrived. */
function readTuple(buf: Buffer, at: number, count: number): { fields: CopiedTuple; end: number } | null {
  const fields: CopiedTuple = [];
  let p = at;
  for (let i = 0; i < count; i++) {
    if (buf.length - p < 4) return null;
    const length = buf.readInt32BE(p);
    p += 4;
    if (length === -1) {
      fields.push(null);
      continue;
    }
    if (length < 0) throw new Error(`binary COPY: a field of length ${length}`);
    if (buf.length - p < length) return null;
    fields.push(Buffer.from(buf.subarray(p, p + length)));
    p += length;
  }
  return { fields, end: p };
}

/** The COPY as node-postgres runs a query: sent as a simple Query, answered with CopyData until ReadyForQuery. */
class CopyOut extends CopySubmittable<CopiedTuple[]> {
  private readonly reader = new BinaryTupleReader();

  constructor(private readonly text: string) {
    super();
  }

  submit(connection: pg.Connection): void {
    connection.query(this.text);
  }

  override handleCopyData(message: { chunk: Buffer }): void {
    if (this.failure) return;
    try {
      this.reader.push(message.chunk);
    } catch (error) {
      // The rest of the answer still arrives and is ignored; the COPY fails at ReadyForQuery.
      this.failure = error instanceof Error ? error : new Error(String(error));
    }
  }

  protected result(): CopiedTuple[] {
    return this.reader.finish();
  }
}

/** Runs a binary `COPY (…) TO STDOUT` on `client` and returns its tuples. */
export function copyOut(client: pg.ClientBase, text: string): Promise<CopiedTuple[]> {
  return client.query(new CopyOut(text)).done;
}
