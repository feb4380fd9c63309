import { describe, expect, it } from "vitest";
import { formatMessage, normalizeLogEntry } from "./message";

describe("formatMessage", () => {
  it("fills %s and %d placeholders in order", () => {
    expect(formatMessage("charging %s for %d items", ["acct-7", 3.9])).toBe("charging acct-7 for 3 items");
  });

  it("fills named %(name)s placeholders from an object", () => {
    expect(formatMessage("user %(user)s failed %(count)d times", { user: "ada", count: 2 })).toBe("user ada failed 2 times");
  });

  it("keeps %% as a percent sign and placeholders without a parameter as written", () => {
    expect(formatMessage("100%% of %s and %s", ["a"])).toBe("100% of a and %s");
  });

  it("accepts flags, width and precision, and renders objects as JSON", () => {
    expect(formatMessage("%5.2f ms, %r", [1.5, { a: 1 }])).toBe('1.5 ms, {"a":1}');
  });

  it("leaves a lone percent sign and unknown conversions alone", () => {
    expect(formatMessage("50% done %q %", ["x"])).toBe("50% done %q %");
  });
});

describe("normalizeLogEntry", () => {
  it("reads a legacy message object", () => {
    expect(normalizeLogEntry(undefined, { message: "hi %s", params: ["you"] })).toEqual({
      message: "hi %s",
      formatted: "hi you",
      params: ["you"],
    });
  });

  it("prefers logentry over message", () => {
    expect(normalizeLogEntry({ formatted: "from logentry" }, "from message")).toEqual({ formatted: "from logentry" });
  });

  it("returns nothing for empty or non-string messages", () => {
    expect(normalizeLogEntry(undefined, "")).toBeUndefined();
    expect(normalizeLogEntry({ message: 5 }, 7)).toBeUndefined();
  });
});
