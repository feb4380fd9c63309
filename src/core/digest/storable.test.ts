import { describe, expect, it } from "vitest";
import { storableNumber, storableRow } from "./storable";

describe("storableRow", () => {
  it("removes NUL and replaces lone surrogates in every string column, leaving other values alone", () => {
    const payload = Buffer.from([0, 1, 2]);
    const row = { name: "a\u0000b", body: "x\ud800y", pair: "😀", n: 1, empty: null, payload };
    expect(storableRow(row)).toEqual({ name: "ab", body: "x\ufffdy", pair: "😀", n: 1, empty: null, payload });
    expect(storableRow(row).payload).toBe(payload);
  });

  it("returns the same row when nothing needs repair, and never changes the row it was given", () => {
    const clean = { a: "fine", b: 2 };
    expect(storableRow(clean)).toBe(clean);
    const dirty = { a: "\u0000" };
    storableRow(dirty);
    expect(dirty.a).toBe("\u0000");
  });

  it("keeps a column named __proto__ a column", () => {
    const row = JSON.parse('{"__proto__":"x\\u0000"}') as Record<string, unknown>;
    const clean = storableRow(row);
    expect(Object.getPrototypeOf(clean)).toBe(Object.prototype);
    expect(Object.getOwnPropertyDescriptor(clean, "__proto__")?.value).toBe("x");
  });

  it("keeps every number within what a bigint and a double both hold, NaN as 0", () => {
    const row = {
      hour: 1e23,
      quantity: 18446744073709551616,
      low: -1e308,
      nan: Number.NaN,
      fine: 1795331379.614,
      inf: Number.POSITIVE_INFINITY,
    };
    expect(storableRow(row)).toEqual({
      hour: Number.MAX_SAFE_INTEGER,
      quantity: Number.MAX_SAFE_INTEGER,
      low: -Number.MAX_SAFE_INTEGER,
      nan: 0,
      fine: 1795331379.614,
      inf: Number.MAX_SAFE_INTEGER,
    });
    expect(storableNumber(42)).toBe(42);
  });
});
