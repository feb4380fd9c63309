import { describe, expect, it } from "vitest";
import { withoutBlowUp } from "../../../../test/support/blow-up";
import { compileGlob, type GlobOptions } from "./glob";

function matches(pattern: string, text: string, options: GlobOptions = {}): boolean {
  const glob = compileGlob(pattern, options);
  if (!glob.ok) throw new Error(glob.message);
  return glob.match(text);
}

describe("compileGlob", () => {
  it("matches the whole text with * and ?", () => {
    expect(matches("Database*", "DatabaseUnavailable")).toBe(true);
    expect(matches("Database*", "MyDatabaseUnavailable")).toBe(false);
    expect(matches("*connection refused*", "error: connection refused by peer")).toBe(true);
    expect(matches("Type?rror", "TypeError")).toBe(true);
    expect(matches("Type?rror", "TypeErrorX")).toBe(false);
    expect(matches("", "")).toBe(true);
    expect(matches("*", "")).toBe(true);
  });

  it("treats backslash-escaped characters literally", () => {
    expect(matches("\\*literal\\*", "*literal*")).toBe(true);
    expect(matches("\\*literal\\*", "xliteralx")).toBe(false);
    expect(matches("a\\?", "a?")).toBe(true);
    expect(matches("\\[x\\]", "[x]")).toBe(true);
  });

  it("supports character classes", () => {
    expect(matches("v[0-9]", "v7")).toBe(true);
    expect(matches("v[0-9]", "vx")).toBe(false);
    expect(matches("[!a]b", "cb")).toBe(true);
    expect(matches("[!a]b", "ab")).toBe(false);
    expect(matches("[]]", "]")).toBe(true);
  });

  it("is case-sensitive unless asked", () => {
    expect(matches("timeout*", "Timeout occurred")).toBe(false);
    expect(matches("timeout*", "Timeout occurred", { caseInsensitive: true })).toBe(true);
  });

  it("stops * at slashes in path mode and lets ** cross them", () => {
    const path = { path: true, caseInsensitive: true };
    expect(matches("**/my-utils/*.js", "/srv/app/my-utils/Format.JS", path)).toBe(true);
    expect(matches("**/my-utils/*.js", "/srv/app/my-utils/deep/format.js", path)).toBe(false);
    expect(matches("**/my-utils/**.js", "/srv/app/my-utils/deep/format.js", path)).toBe(true);
    expect(matches("**/src/?.js", "/src//.js", path)).toBe(false);
    expect(matches("**/src/*.js", "C:\\proj\\src\\a.js", path)).toBe(true);
    expect(matches("*/my-utils/*", "app/my-utils/x")).toBe(true);
  });

  it("reports an unclosed class with its offset", () => {
    expect(compileGlob("abc[de")).toEqual({ ok: false, offset: 3, message: "unclosed '[' (write \\[ for a literal bracket)" });
  });

  it("stays linear on patterns that make a backtracking RegExp explode", () => {
    const glob = compileGlob("*a*a*a*a*a*a*a*a*a*a*b");
    if (!glob.ok) throw new Error(glob.message);
    const text = "a".repeat(100_000);
    expect(withoutBlowUp(() => glob.match(text))).toBe(false);
  });
});
