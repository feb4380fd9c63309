import { sql } from "kysely";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { openDigestBench, type DigestBench } from "../../test/support/digest";
import { DIALECTS } from "../../test/support/stores";
import { chunkSizes, exactSizes, insertRows, MAX_CHUNK } from "./bulk-insert";
import { preparedName } from "./prepared-pool";
import type { DB } from "./schema";

describe("chunkSizes", () => {
  it("splits any count into powers of two, largest first, adding up to it", () => {
    expect(chunkSizes(0)).toEqual([]);
    expect(chunkSizes(200)).toEqual([128, 64, 8]);
    expect(chunkSizes(MAX_CHUNK * 2 + 3)).toEqual([MAX_CHUNK, MAX_CHUNK, 2, 1]);
    for (let n = 0; n < 1100; n++) {
      const sizes = chunkSizes(n);
      expect(sizes.reduce((a, b) => a + b, 0)).toBe(n);
      for (const s of sizes) expect(Number.isInteger(Math.log2(s)) && s <= MAX_CHUNK).toBe(true);
    }
  });
});

describe("exactSizes", () => {
  it("makes one statement of any count up to MAX_CHUNK, and full ones before the rest past it", () => {
    expect(exactSizes(0)).toEqual([]);
    expect(exactSizes(77)).toEqual([77]);
    expect(exactSizes(MAX_CHUNK)).toEqual([MAX_CHUNK]);
    expect(exactSizes(MAX_CHUNK + 5)).toEqual([MAX_CHUNK, 5]);
  });
});

// Both dialects in one process, in turn: a statement text remembered for one must never be used for the other.
for (const dialect of DIALECTS) {
  describe(`insertRows on ${dialect}`, () => {
    let bench: DigestBench;
    beforeAll(async () => {
      bench = await openDigestBench(dialect);
    });
    afterAll(async () => {
      await bench.store.cleanup();
    });

    const row = (i: number, level = "info") => ({
      project_id: bench.projectId,
      timestamp: i,
      level,
      body: `log ${i}`,
      trace_id: i % 2 === 0 ? null : `t${i}`,
      data: JSON.stringify({ i }),
    });
    const stored = () =>
      bench.store.db.selectFrom("logs").select(["timestamp", "level", "body", "trace_id", "data"]).orderBy("id").execute();

    it("stores every row, in order, the second time from the remembered statement texts", async () => {
      const first = Array.from({ length: 300 }, (_, i) => row(i));
      const second = Array.from({ length: 300 }, (_, i) => row(1000 + i, "warning"));
      await insertRows(bench.store.db, "logs", first);
      await insertRows(bench.store.db, "logs", second);
      const rows = await stored();
      expect(rows).toHaveLength(600);
      expect(rows.map((r) => Number(r.timestamp))).toEqual([...first, ...second].map((r) => r.timestamp));
      expect(rows[301]).toMatchObject({ level: "warning", body: "log 1001", trace_id: "t1001", data: '{"i":1001}' });
    });

    it("stores a group of any size in one statement with `exact`, in order", async () => {
      await bench.store.db.deleteFrom("logs").execute();
      for (const n of [3, 77, 3])
        await insertRows(
          bench.store.db,
          "logs",
          Array.from({ length: n }, (_, i) => row(n * 1000 + i)),
          undefined,
          { exact: true },
        );
      const rows = await stored();
      expect(rows.map((r) => Number(r.timestamp))).toEqual([
        ...[0, 1, 2].map((i) => 3000 + i),
        ...Array.from({ length: 77 }, (_, i) => 77_000 + i),
        ...[0, 1, 2].map((i) => 3000 + i),
      ]);
    });

    it("writes an expression in a value as Kysely does, even where the shape's text is remembered", async () => {
      await bench.store.db.deleteFrom("logs").execute();
      await insertRows(bench.store.db, "logs", [row(1), row(2)]);
      // Insertable rows are typed as plain values; a caller that casts an expression in must still get its SQL.
      const fatal = sql<string>`'fa' || 'tal'` as unknown as string;
      await insertRows(bench.store.db, "logs", [row(3), { ...row(4), level: fatal }]);
      expect((await stored()).map((r) => r.level)).toEqual(["info", "info", "info", "fatal"]);
    });

    it.runIf(dialect === "postgres")("runs a remembered text as a named prepared statement on PostgreSQL", async () => {
      await bench.store.db.deleteFrom("logs").execute();
      // One transaction: one connection, whose prepared statements pg_prepared_statements lists.
      const prepared = await bench.store.db.transaction().execute(async (trx) => {
        for (let round = 0; round < 3; round++)
          await insertRows<DB, "logs">(trx, "logs", [row(round * 10), row(round * 10 + 1), row(round * 10 + 2)], undefined, {
            exact: true,
          });
        const listed = await sql<{ name: string; statement: string; generic_plans: number; custom_plans: number }>`
          select name, statement, generic_plans, custom_plans from pg_prepared_statements`.execute(trx);
        // The three-row statement: six columns a row, so its last parameter is $18.
        return listed.rows.filter(
          (r) => /insert into "logs"/i.test(r.statement) && /\$18\b/.test(r.statement) && !/\$19\b/.test(r.statement),
        );
      });
      expect(prepared).toHaveLength(1);
      expect(prepared[0]!.name).toMatch(/^telltale_\d+$/);
      expect(preparedName(prepared[0]!.statement)).toBe(prepared[0]!.name);
      // Planned once, generically, not with each execution's values copied in (src/db/connect.ts).
      // (An earlier test may have run the same shape on this connection: at least this test's three.)
      expect(prepared[0]!.custom_plans).toBe(0);
      expect(prepared[0]!.generic_plans).toBeGreaterThanOrEqual(3);
      expect((await stored()).map((r) => Number(r.timestamp))).toEqual([0, 1, 2, 10, 11, 12, 20, 21, 22]);
    });

    it("stores rows whose columns differ from the first row's, or hold undefined, as Kysely would", async () => {
      await bench.store.db.deleteFrom("logs").execute();
      const { trace_id: _omitted, ...withoutTrace } = row(1);
      await insertRows(bench.store.db, "logs", [row(0), withoutTrace, { ...row(3), trace_id: undefined }]);
      const rows = await stored();
      expect(rows.map((r) => [Number(r.timestamp), r.trace_id])).toEqual([
        [0, null],
        [1, null],
        [3, null],
      ]);
    });
  });
}
