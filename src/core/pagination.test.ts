import { describe, expect, it } from "vitest";
import { decodeKeyset, decodeOffset, encodeKeyset, keysetPage, offsetPage, type Keyset } from "./pagination";

const encode = (k: Keyset) => `${k.back ? "<" : ">"}${k.value}`;
const key = (n: number) => ({ value: n, id: n });

describe("keysetPage", () => {
  it("has no previous page without a cursor, and a next one only when more rows were read", () => {
    expect(keysetPage([9, 8, 7], 2, null, key, encode)).toEqual({ rows: [9, 8], previousCursor: null, nextCursor: ">8" });
    expect(keysetPage([9, 8], 2, null, key, encode)).toEqual({ rows: [9, 8], previousCursor: null, nextCursor: null });
  });

  it("offers the page before the first row after a forward cursor", () => {
    expect(keysetPage([7, 6], 2, { value: 8, id: 8, back: false }, key, encode)).toEqual({
      rows: [7, 6],
      previousCursor: "<7",
      nextCursor: null,
    });
  });

  it("turns a backward page round and offers a previous one only when more rows lie before", () => {
    expect(keysetPage([8, 9, 10], 2, { value: 7, id: 7, back: true }, key, encode)).toEqual({
      rows: [9, 8],
      previousCursor: "<9",
      nextCursor: ">8",
    });
    expect(keysetPage([8, 9], 2, { value: 7, id: 7, back: true }, key, encode)).toEqual({
      rows: [9, 8],
      previousCursor: null,
      nextCursor: ">8",
    });
  });
});

describe("keyset cursors", () => {
  it("round-trip, fractional values included, and refuse another list's or a made-up cursor", () => {
    const text = encodeKeyset("e1", { value: 1796186466.949, id: 2, back: true });
    expect(text).toMatch(/^[A-Za-z0-9_-]+$/);
    expect(decodeKeyset("e1", text)).toEqual({ value: 1796186466.949, id: 2, back: true });
    expect(decodeKeyset("x1", text)).toBeNull();
    expect(decodeKeyset("e1", "bogus")).toBeNull();
    expect(decodeKeyset("e1", "")).toBeNull();
  });
});

describe("offsetPage", () => {
  it("offers the pages on either side as offsets that only its own prefix reads back", () => {
    const page = offsetPage(["c", "d", "e"], 2, 2, "tv1");
    expect(page.rows).toEqual(["c", "d"]);
    expect([page.previousCursor, page.nextCursor].map((c) => (c === null ? null : decodeOffset("tv1", c)))).toEqual([0, 4]);
    expect(offsetPage(["a"], 2, 0, "tv1")).toEqual({ rows: ["a"], previousCursor: null, nextCursor: null });
    expect(decodeOffset("e1", page.nextCursor ?? "")).toBeNull();
    expect(decodeOffset("tv1", encodeKeyset("tv1", { value: 4, id: 7, back: false }))).toBeNull();
  });
});
