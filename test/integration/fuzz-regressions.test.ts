import { afterAll, beforeAll, describe, it } from "vitest";
import { openDigestBench, type DigestBench } from "../support/digest";
import { expectEveryEnvelopeAccounted, loadRegressions } from "../support/fuzz-digest";
import { DIALECTS } from "../support/stores";

/** Every input the fuzz suites (or the hardening issue) found failing, replayed under the same invariant. */
describe.each(DIALECTS)("fuzz regressions on %s", (dialect) => {
  let bench: DigestBench;
  beforeAll(async () => void (bench = await openDigestBench(dialect)));
  afterAll(async () => bench.store.cleanup());

  for (const { name, description, bodies } of loadRegressions()) {
    it(`accounts for ${name}: ${description}`, () => expectEveryEnvelopeAccounted(bench, bodies));
  }
});
