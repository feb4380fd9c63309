import { describe, expect, it } from "vitest";
import { decodeIdentifier, isPossibleIdentifier, isStorableText, MAX_IDENTIFIER_CHARS, rowIdOf } from "./identifiers";

describe("identifiers from requests", () => {
  it("refuses NUL and lone surrogates, keeps other text", () => {
    expect(isStorableText("a\u0000b")).toBe(false);
    expect(isStorableText("\ud800x")).toBe(false);
    expect(isStorableText("x\udc00")).toBe(false);
    expect(isStorableText("caf\u00e9 \u{1f4a5} web-1A")).toBe(true);
  });

  it("bounds the length", () => {
    expect(isPossibleIdentifier("x".repeat(MAX_IDENTIFIER_CHARS))).toBe(true);
    expect(isPossibleIdentifier("x".repeat(MAX_IDENTIFIER_CHARS + 1))).toBe(false);
  });

  it("reads row ids within PostgreSQL's integer only", () => {
    expect(rowIdOf("42")).toBe(42);
    expect(rowIdOf("2147483647")).toBe(2147483647);
    expect(rowIdOf("2147483648")).toBeNull();
    expect(rowIdOf("99999999999999999999")).toBeNull();
    expect(rowIdOf("0")).toBeNull();
    expect(rowIdOf("4a")).toBeNull();
  });

  it("decodes path segments, refusing bad escapes and NUL", () => {
    expect(decodeIdentifier("my%20org")).toBe("my org");
    expect(decodeIdentifier("%00")).toBeNull();
    expect(decodeIdentifier("a%FFb")).toBeNull();
    expect(decodeIdentifier("%")).toBeNull();
    expect(decodeIdentifier("%ED%A0%80")).toBeNull();
  });
});
