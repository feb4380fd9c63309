import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { fuzzParameters, hostileEnvelope } from "../../../test/support/fuzz";
import { EnvelopeParser, isEnvelopeError, parseEnvelope } from "./index";

/** What the parser did with one input: parsed, or refused with its typed error; anything else fails the property. */
function outcome(run: () => void): "parsed" | "refused" {
  try {
    run();
    return "parsed";
  } catch (error) {
    if (isEnvelopeError(error)) return "refused";
    throw error;
  }
}

describe("envelope parser under fuzzing", () => {
  const { seed, numRuns } = fuzzParameters("envelope parser", 1000);

  it("parses any input or refuses it with an EnvelopeError, never another throw", () => {
    fc.assert(
      fc.property(hostileEnvelope, (body) => {
        outcome(() => parseEnvelope(body));
      }),
      { seed, numRuns },
    );
  });

  it("reaches the same verdict however the input is split into chunks", () => {
    fc.assert(
      fc.property(hostileEnvelope, fc.array(fc.integer({ min: 1, max: 64 }), { minLength: 1, maxLength: 8 }), (body, sizes) => {
        const whole = outcome(() => parseEnvelope(body));
        const streamed = outcome(() => {
          const parser = new EnvelopeParser({});
          let at = 0;
          for (let i = 0; at < body.length; i++) {
            const size = sizes[i % sizes.length] ?? 1;
            parser.push(body.subarray(at, at + size));
            at += size;
          }
          parser.end();
        });
        expect(streamed).toBe(whole);
      }),
      { seed, numRuns },
    );
  });
});
