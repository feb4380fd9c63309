import { describe, expect, it } from "vitest";
import { cursorAfter, decodeIssueCursor, encodeIssueCursor, parseIssueSort } from "./sort";

describe("issue sorts", () => {
  it("defaults to date and accepts Sentry's sort names", () => {
    expect(parseIssueSort(undefined)).toEqual({ ok: true, sort: "date" });
    expect(parseIssueSort("")).toEqual({ ok: true, sort: "date" });
    for (const sort of ["date", "new", "freq", "user"]) expect(parseIssueSort(sort)).toEqual({ ok: true, sort });
  });

  it("refuses an unknown sort with the list of known ones", () => {
    expect(parseIssueSort("priority")).toEqual({ ok: false, message: 'Unknown sort "priority" — use date, new, freq, user' });
    expect(parseIssueSort("__proto__")).toMatchObject({ ok: false });
  });
});

describe("issue cursors", () => {
  it("round-trips through an opaque URL-safe string", () => {
    const text = encodeIssueCursor({ sort: "freq", value: 1234, id: 56, back: false });
    expect(text).toMatch(/^[A-Za-z0-9_-]+$/);
    expect(decodeIssueCursor(text, "freq")).toEqual({ ok: true, cursor: { sort: "freq", value: 1234, id: 56, back: false } });
    const previous = encodeIssueCursor({ sort: "freq", value: 1234, id: 56, back: true });
    expect(decodeIssueCursor(previous, "freq")).toEqual({ ok: true, cursor: { sort: "freq", value: 1234, id: 56, back: true } });
  });

  it("takes the sort column's value from the last row", () => {
    const row = { id: 7, last_seen: 1_700_000_000_000, first_seen: 1, times_seen: 2, user_count: 3 };
    expect(decodeIssueCursor(cursorAfter("date", row), "date")).toEqual({
      ok: true,
      cursor: { sort: "date", value: 1_700_000_000_000, id: 7, back: false },
    });
    expect(decodeIssueCursor(cursorAfter("user", row), "user")).toEqual({
      ok: true,
      cursor: { sort: "user", value: 3, id: 7, back: false },
    });
  });

  it("refuses a cursor made for another sort, saying how to start over", () => {
    expect(decodeIssueCursor(encodeIssueCursor({ sort: "new", value: 1, id: 1, back: false }), "date")).toEqual({
      ok: false,
      message: "This cursor is for sort=new, not sort=date — drop the cursor parameter to start from the first page",
    });
  });

  it.each([
    ["empty", ""],
    ["not base64url", "abc/def+=="],
    ["garbage", "!!!"],
    ["base64 of other text", Buffer.from("hello").toString("base64url")],
    ["unknown version", Buffer.from("i2:date:1:1").toString("base64url")],
    ["unknown sort", Buffer.from("i1:priority:1:1").toString("base64url")],
    ["negative value", Buffer.from("i1:date:-1:1").toString("base64url")],
    ["huge value", Buffer.from(`i1:date:${"9".repeat(17)}:1`).toString("base64url")],
    ["unsafe integer", Buffer.from("i1:date:9999999999999999:1").toString("base64url")],
    ["too long", "A".repeat(201)],
    ["prototype key", Buffer.from("i1:constructor:1:1").toString("base64url")],
  ])("refuses a cursor that is %s", (_what, text) => {
    expect(decodeIssueCursor(text, "date")).toEqual({
      ok: false,
      message: "Invalid cursor — drop the cursor parameter to start from the first page",
    });
  });
});
