import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { openDigestBench, type DigestBench } from "../../test/support/digest";
import { DIALECTS } from "../../test/support/stores";
import { chunkSizes, insertRows, MAX_CHUNK } from "./bulk-insert";

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
