import { randomBytes } from "node:crypto";
import { sql } from "kysely";
import pg from "pg";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { openTestStore, PG_URL, type TestStore } from "../../test/support/stores";
import { BinaryTupleReader, type CopiedTuple, copyOut, isBinaryCopyOut } from "./copy-out";

/** The binary COPY format by hand: header (with an extension), tuples, end mark. */
function encode(tuples: CopiedTuple[], extension = Buffer.alloc(0)): Buffer {
  const parts: Buffer[] = [Buffer.from("PGCOPY\n\xff\r\n\0", "latin1"), int32(0), int32(extension.length), extension];
  for (const t of tuples) {
    parts.push(int16(t.length));
    for (const f of t) parts.push(f ? Buffer.concat([int32(f.length), f]) : int32(-1));
  }
  parts.push(int16(-1));
  return Buffer.concat(parts);
}
const int16 = (n: number) => {
  const b = Buffer.alloc(2);
  b.writeInt16BE(n);
  return b;
};
const int32 = (n: number) => {
  const b = Buffer.alloc(4);
  b.writeInt32BE(n);
  return b;
};

/** A small deterministic generator, so a failing split can be replayed (seed logged by the test name). */
function splits(seed: number, length: number): number[] {
  let s = seed;
  const cuts: number[] = [];
  for (let at = 0; at < length;) {
    s = (s * 1103515245 + 12345) % 2 ** 31;
    at += 1 + (s % 97);
    cuts.push(Math.min(at, length));
  }
  return cuts;
}

describe("BinaryTupleReader", () => {
  const all = Buffer.from(Array.from({ length: 256 }, (_, i) => i));
  const tuples: CopiedTuple[] = [[int32(7), null, Buffer.alloc(0)], [all, Buffer.from("é\0x"), randomBytes(70_000)], []];
  const bytes = encode(tuples, Buffer.from("ext"));

  it("reads tuples whole, with NULLs, empty values and every byte", () => {
    const reader = new BinaryTupleReader();
    reader.push(bytes);
    expect(reader.finish()).toEqual(tuples);
  });

  for (const seed of [1, 2, 3, 42, 2026]) {
    it(`reads the same tuples whatever the chunk boundaries (seed ${seed})`, () => {
      const reader = new BinaryTupleReader();
      let from = 0;
      for (const to of splits(seed, bytes.length)) {
        // Each chunk is a copy that is overwritten once pushed, as node-postgres reuses its buffer.
        const chunk = Buffer.from(bytes.subarray(from, to));
        reader.push(chunk);
        chunk.fill(0xaa);
        from = to;
      }
      expect(reader.finish()).toEqual(tuples);
    });
  }

  it("reads one byte at a time", () => {
    const reader = new BinaryTupleReader();
    for (let i = 0; i < 400; i++) reader.push(bytes.subarray(i, i + 1));
    reader.push(bytes.subarray(400));
    expect(reader.finish()).toEqual(tuples);
  });

  it("refuses data cut short, a wrong signature, negative lengths and data after the end", () => {
    const short = new BinaryTupleReader();
    short.push(bytes.subarray(0, bytes.length - 1));
    expect(() => short.finish()).toThrow(/ended before its end mark/);
    expect(() => new BinaryTupleReader().push(Buffer.from("PGCOPY\n\xff\r\n\x01\0\0\0\0\0\0\0\0", "latin1"))).toThrow(/signature/);
    const negative = Buffer.concat([encode([]).subarray(0, 19), int16(1), int32(-2)]);
    expect(() => new BinaryTupleReader().push(negative)).toThrow(/length -2/);
    expect(() => new BinaryTupleReader().push(Buffer.concat([encode([]), Buffer.from("x")]))).toThrow(/after the end/);
  });

  it("recognizes only a binary COPY to the client", () => {
    expect(isBinaryCopyOut("copy (select 1) to stdout (format binary)")).toBe(true);
    expect(isBinaryCopyOut("COPY (select 1\n  from t) TO STDOUT (FORMAT BINARY)")).toBe(true);
    expect(isBinaryCopyOut("copy (select 1) to stdout")).toBe(false);
    expect(isBinaryCopyOut("copy t from stdin (format binary)")).toBe(false);
    expect(isBinaryCopyOut("select 'copy (x) to stdout (format binary)'")).toBe(false);
  });
});

describe("copyOut on PostgreSQL", () => {
  const schema = `copy_out_${randomBytes(4).toString("hex")}`;
  let client: pg.Client;
  const all = Buffer.from(Array.from({ length: 256 }, (_, i) => i));
  const big = randomBytes(300 * 1024);

  beforeAll(async () => {
    client = new pg.Client({ connectionString: PG_URL });
    await client.connect();
    await client.query(`create schema ${schema}`);
    await client.query(`set search_path = ${schema}`);
    await client.query("create table t (id integer, n bigint, body bytea)");
    await client.query("insert into t values (1, 9007199254740991, $1), (2, -5, $2), (3, 0, ''), (4, null, null)", [all, big]);
  });
  afterAll(async () => {
    await client?.query(`drop schema if exists ${schema} cascade`);
    await client?.end();
  });

  it("returns every field's bytes as the database holds them", async () => {
    const rows = await copyOut(client, "copy (select id, n, body from t order by id) to stdout (format binary)");
    expect(rows.map((r) => r[0]?.readInt32BE(0))).toEqual([1, 2, 3, 4]);
    expect(rows.map((r) => (r[1] ? r[1].readBigInt64BE(0) : null))).toEqual([9007199254740991n, -5n, 0n, null]);
    expect(rows[0]![2]!.equals(all)).toBe(true);
    expect(rows[1]![2]!.equals(big)).toBe(true);
    expect(rows[2]![2]).toEqual(Buffer.alloc(0));
    expect(rows[3]![2]).toBeNull();
  });

  it("rejects with the server's error, and the connection's next queries work", async () => {
    await expect(copyOut(client, "copy (select * from missing) to stdout (format binary)")).rejects.toThrow(/missing.*does not exist/);
    await expect(copyOut(client, "copy (select 1/0) to stdout (format binary)")).rejects.toThrow(/division by zero/);
    expect((await client.query<{ one: number }>("select 1 as one")).rows).toEqual([{ one: 1 }]);
    expect(await copyOut(client, "copy (select id from t where id = 3) to stdout (format binary)")).toEqual([[int32(3)]]);
  });
});

describe("a binary COPY through Kysely (PostgreSQL)", () => {
  let store: TestStore;
  beforeAll(async () => {
    store = await openTestStore("postgres");
  });
  afterAll(async () => {
    await store?.cleanup();
  });

  it("runs in the caller's transaction and returns its tuples as rows", async () => {
    const rows = await store.db.transaction().execute(async (trx) => {
      // A temporary table is seen only by this transaction's connection.
      await sql`create temporary table only_here (v bytea) on commit drop`.execute(trx);
      await sql`insert into only_here values (${Buffer.from([0, 1, 2])})`.execute(trx);
      return (await sql<CopiedTuple>`copy (select v from only_here) to stdout (format binary)`.execute(trx)).rows;
    });
    expect(rows).toEqual([[Buffer.from([0, 1, 2])]]);
  });

  it("refuses parameters, which COPY cannot take", async () => {
    await expect(sql`copy (select ${1}) to stdout (format binary)`.execute(store.db)).rejects.toThrow(/no parameters/);
  });
});
