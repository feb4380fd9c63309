import { describe, expect, it } from "vitest";
import { isRowFault } from "./digest-write";

const withCode = (code: string) => Object.assign(new Error(code), { code });

describe("isRowFault", () => {
  it("blames the rows for data, integrity and size errors, and for our own exceptions", () => {
    for (const code of ["22021", "22P05", "23505", "54000", "SQLITE_CONSTRAINT_UNIQUE", "SQLITE_TOOBIG", "SQLITE_MISMATCH"])
      expect(isRowFault(withCode(code)), code).toBe(true);
    expect(isRowFault(new RangeError("Maximum call stack size exceeded"))).toBe(true);
  });

  it("blames the database for outages, so a batch is retried whole instead of set aside", () => {
    for (const code of [
      "08006",
      "53100",
      "57P01",
      "40001",
      "SQLITE_BUSY",
      "SQLITE_FULL",
      "SQLITE_IOERR_WRITE",
      "ECONNRESET",
      "ECONNREFUSED",
    ])
      expect(isRowFault(withCode(code)), code).toBe(false);
  });
});
