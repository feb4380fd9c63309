import { describe, expect, it } from "vitest";
import { globLiteral, globToLike, hasWildcard, literalGlob } from "./glob";

describe("globs", () => {
  it("finds unescaped wildcards only", () => {
    expect(hasWildcard("1.2.*")).toBe(true);
    expect(hasWildcard("1.2.\\*")).toBe(false);
    expect(hasWildcard("a\\\\*")).toBe(true);
    expect(hasWildcard("plain")).toBe(false);
  });

  it("reads the literal text of a glob without wildcards", () => {
    expect(globLiteral("1.0\\*")).toBe("1.0*");
    expect(globLiteral("C:\\\\dir")).toBe("C:\\dir");
    expect(globLiteral("100%_done?")).toBe("100%_done?");
  });

  it("writes a glob that matches exactly a text", () => {
    expect(literalGlob("a*b\\c")).toBe("a\\*b\\\\c");
    expect(globLiteral(literalGlob("a*b\\c"))).toBe("a*b\\c");
    expect(hasWildcard(literalGlob("***"))).toBe(false);
  });

  it("turns a glob into a LIKE pattern that escapes %, _ and the backslash", () => {
    expect(globToLike("1.2.*")).toBe("1.2.%");
    expect(globToLike("*100%_done*")).toBe("%100\\%\\_done%");
    expect(globToLike("C:\\\\dir\\*")).toBe("C:\\\\dir*");
    expect(globToLike("a?b")).toBe("a?b");
  });
});
