import { describe, expect, it } from "vitest";
import { Budget, compactJson, trimObject, trimValue } from "./databag";
import { BAG } from "./limits";

function nested(depth: number): unknown {
  let value: unknown = "leaf";
  for (let i = 0; i < depth; i++) value = { child: value };
  return value;
}

describe("trimValue", () => {
  it("copies a small value unchanged", () => {
    const value = { a: [1, "two", true, null], b: { c: 3.5 } };
    expect(trimValue(value, BAG.medium)).toEqual(value);
  });

  it("stringifies containers below the depth limit, as Relay does", () => {
    expect(trimValue(nested(5), BAG.small)).toEqual({ child: { child: { child: '{"child":{"child":"leaf"}}' } } });
  });

  it("drops items beyond the byte budget and marks the budget trimmed", () => {
    const budget = new Budget(BAG.small.bytes);
    const value = Object.fromEntries(Array.from({ length: 200 }, (_, i) => [`key${i}`, "x".repeat(20)]));
    const out = trimObject(value, BAG.small, budget);
    expect(JSON.stringify(out).length).toBeLessThanOrEqual(BAG.small.bytes + 64);
    expect(Object.keys(out ?? {}).length).toBeLessThan(200);
    expect(budget.trimmed).toBe(true);
  });

  it("cuts a long string to the remaining budget with an ellipsis", () => {
    const out = trimValue("y".repeat(5000), BAG.small);
    expect(typeof out === "string" && out.length <= BAG.small.bytes && out.endsWith("…")).toBe(true);
  });

  it("caps the breadth of an array at 1000 items", () => {
    const out = trimValue(new Array(5000).fill(0), BAG.massive);
    expect(Array.isArray(out) && out.length).toBe(1000);
  });

  it("survives 10 000 levels of nesting without deep recursion", () => {
    let deep: unknown = [];
    for (let i = 0; i < 10_000; i++) deep = [deep];
    expect(JSON.stringify(trimValue(deep, BAG.massive)).length).toBeLessThan(200);
  });

  it("turns non-JSON values into null or leaves them out", () => {
    expect(trimValue({ a: undefined, b: () => 1, c: Number.NaN, d: [undefined] }, BAG.small)).toEqual({ c: null, d: [null] });
  });
});

describe("compactJson", () => {
  it("renders JSON within the character limit", () => {
    expect(compactJson({ a: [1, "b"] }, 100)).toBe('{"a":[1,"b"]}');
    expect(compactJson({ a: "x".repeat(500) }, 20)).toHaveLength(20);
  });
});
