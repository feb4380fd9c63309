import fc from "fast-check";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { openDigestBench, type DigestBench } from "../support/digest";
import { fuzzParameters, hostileEnvelope } from "../support/fuzz";
import { expectEveryEnvelopeAccounted, expectStoredTimesReadable, saveRegression } from "../support/fuzz-digest";
import { hostileFieldCases } from "../support/fuzz-fields";
import { DIALECTS } from "../support/stores";

/**
 * Property-based fuzzing of every digest stage, on both databases: batches of hostile
 * envelopes (any item type, wrong field types, deep nesting, NUL and lone surrogates, huge
 * numbers, random bytes) never stall the digest and never vanish unaccounted. A failing input
 * belongs in test/fixtures/fuzz-regressions/ (replayed by fuzz-regressions.test.ts).
 */
describe.each(DIALECTS)("the digest under fuzzing on %s", (dialect) => {
  let bench: DigestBench;
  beforeAll(async () => void (bench = await openDigestBench(dialect)));
  afterAll(async () => bench.store.cleanup());

  it("accounts for every hostile envelope and still stores a legitimate event afterwards", async () => {
    const { seed, numRuns } = fuzzParameters(`digest on ${dialect}`, 120);
    await fc.assert(
      fc.asyncProperty(fc.array(hostileEnvelope, { minLength: 1, maxLength: 4 }), async (bodies) => {
        try {
          await expectEveryEnvelopeAccounted(bench, bodies);
        } catch (error) {
          const name = saveRegression(`found by the digest fuzz suite on ${dialect}, FUZZ_SEED=${seed}`, bodies);
          console.log(`[fuzz] failing input kept as test/fixtures/fuzz-regressions/${name}`);
          throw error;
        }
      }),
      { seed, numRuns, endOnFailure: true },
    );
  }, 120_000);

  it("stores the good event beside every hostile timestamp, text and integer field of every item type, and reads it all back", async () => {
    const { seed } = fuzzParameters(`hostile fields on ${dialect}`, 0);
    const cases = hostileFieldCases(seed, 3);
    await bench.enqueue(...cases.map((c) => c.body));
    await bench.drain();
    const db = bench.store.db;
    const letters = await db.selectFrom("dead_letters").select(["reason", "excerpt"]).where("project_id", "=", bench.projectId).execute();
    expect(letters.map((l) => `${l.reason}: ${l.excerpt.slice(0, 300)}`)).toEqual([]);
    const ids = cases.map((c) => c.goodEventId);
    const stored = new Set(
      (await db.selectFrom("events").select("event_id").where("event_id", "in", ids).execute()).map((r) => r.event_id),
    );
    expect(cases.filter((c) => !stored.has(c.goodEventId)).map((c) => c.label)).toEqual([]);
    await expectStoredTimesReadable(bench);
  }, 120_000);
});
