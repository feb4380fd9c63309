import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { fuzzParameters } from "../../../test/support/fuzz";
import { MAX_JSON_DEPTH, nestsDeeperThan, readJson } from "./read";

/** The depth of a parsed value, walked with an explicit stack (the reference the byte scan must match). */
function depthOf(value: unknown): number {
  let max = 0;
  const stack: [unknown, number][] = [[value, 0]];
  for (let top = stack.pop(); top; top = stack.pop()) {
    const [v, d] = top;
    if (typeof v !== "object" || v === null) continue;
    max = Math.max(max, d + 1);
    for (const child of Object.values(v)) stack.push([child, d + 1]);
  }
  return max;
}

describe("nestsDeeperThan", () => {
  it("sees 30,000 levels of nesting without recursion, which JSON.parse accepts but JSON.stringify cannot walk", () => {
    const text = `{"a":${"[".repeat(30_000)}${"]".repeat(30_000)}}`;
    expect(nestsDeeperThan(Buffer.from(text), MAX_JSON_DEPTH)).toBe(true);
    // Why the check must come before any walk: the parse succeeds, the first recursive walk overflows.
    const parsed = readJson(Buffer.from(text));
    expect(parsed).toBeTypeOf("object");
    expect(() => JSON.stringify(parsed)).toThrow(RangeError);
  });

  it("does not count brackets inside strings, escaped quotes included", () => {
    expect(nestsDeeperThan(Buffer.from(JSON.stringify({ s: '[[[[{{{{\\"[[[[' })), 1)).toBe(false);
    expect(nestsDeeperThan(Buffer.from(JSON.stringify({ s: '"', t: [[1]] })), 2)).toBe(true);
    // A string ending in backslashes: its closing quote follows an even number of them.
    expect(nestsDeeperThan(Buffer.from(JSON.stringify({ s: "a\\", t: [[1]] })), 2)).toBe(true);
    expect(nestsDeeperThan(Buffer.from(JSON.stringify({ s: '\\"[[[', t: [1] })), 2)).toBe(false);
    // An unterminated string hides the rest (the parse rejects the text anyway).
    expect(nestsDeeperThan(Buffer.from('{"s":"[[[[[[[[[['), 2)).toBe(false);
  });

  it("agrees with the depth of the parsed value for any JSON", () => {
    const { seed, numRuns } = fuzzParameters("nestsDeeperThan", 300);
    fc.assert(
      fc.property(fc.jsonValue({ maxDepth: 8 }), fc.integer({ min: 0, max: 9 }), (value, max) => {
        const text = Buffer.from(JSON.stringify(value));
        expect(nestsDeeperThan(text, max)).toBe(depthOf(value) > max);
      }),
      { seed, numRuns },
    );
  });
});
