import fc from "fast-check";
import { afterAll, beforeAll, describe, it } from "vitest";
import { openDigestBench, type DigestBench } from "../support/digest";
import { fuzzParameters, hostileEnvelope } from "../support/fuzz";
import { expectEveryEnvelopeAccounted, saveRegression } from "../support/fuzz-digest";
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
});
