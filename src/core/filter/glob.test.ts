import { describe, expect, it } from "vitest";
import { withoutBlowUp } from "../../../test/support/blow-up";
import { compileGlob, globMatch, matchesAnyGlob } from "./glob";

describe("globMatch", () => {
  it("matches the whole text, not a part of it", () => {
    expect(globMatch("timeout", "timeout")).toBe(true);
    expect(globMatch("timeout", "request timeout")).toBe(false);
    expect(globMatch("timeout", "timeouts")).toBe(false);
  });

  it("lets * stand for any run of characters, including none", () => {
    expect(globMatch("*timeout*", "Error: request timeout after 30s")).toBe(true);
    expect(globMatch("*timeout*", "timeout")).toBe(true);
    expect(globMatch("a*b*c", "abc")).toBe(true);
    expect(globMatch("a*b*c", "a-x-b-y-c")).toBe(true);
    expect(globMatch("a*b*c", "a-x-c-y-b")).toBe(false);
    expect(globMatch("*", "")).toBe(true);
    expect(globMatch("**", "anything at all")).toBe(true);
  });

  it("lets ? stand for exactly one character", () => {
    expect(globMatch("HTTP 50?", "HTTP 503")).toBe(true);
    expect(globMatch("HTTP 50?", "HTTP 50")).toBe(false);
    expect(globMatch("HTTP 50?", "HTTP 5030")).toBe(false);
    expect(globMatch("?*", "")).toBe(false);
  });

  it("counts an emoji as one character for ?", () => {
    expect(globMatch("status ?", "status 🔥")).toBe(true);
  });

  it("does not overlap the head and the tail of a pattern", () => {
    expect(globMatch("ab*ba", "aba")).toBe(false);
    expect(globMatch("ab*ba", "abba")).toBe(true);
  });

  it("takes regex characters literally", () => {
    expect(globMatch("Can't find variable: (gmo)[0].x", "Can't find variable: (gmo)[0].x")).toBe(true);
    expect(globMatch("a.c", "abc")).toBe(false);
    expect(globMatch("^start$", "^start$")).toBe(true);
  });

  it("is case-sensitive unless asked otherwise", () => {
    expect(globMatch("*Timeout*", "request timeout")).toBe(false);
    expect(globMatch("*Timeout*", "request timeout", { caseInsensitive: true })).toBe(true);
  });

  it("matches only the empty text with an empty pattern", () => {
    expect(globMatch("", "")).toBe(true);
    expect(globMatch("", "x")).toBe(false);
  });
});

describe("matchesAnyGlob", () => {
  it("is true when any pattern matches any text", () => {
    expect(matchesAnyGlob(["nope", "*b*"], ["xxx", "abc"])).toBe(true);
    expect(matchesAnyGlob(["nope"], ["abc"])).toBe(false);
  });

  it("ignores empty patterns, so an empty entry never drops events", () => {
    expect(matchesAnyGlob([""], [""])).toBe(false);
    expect(matchesAnyGlob([], ["abc"])).toBe(false);
    expect(matchesAnyGlob(["*"], [])).toBe(false);
  });
});

describe("glob matching on hostile input", () => {
  // As a backtracking regex (^.*a.*a…b$) each of these takes exponential or high
  // polynomial time on a long run of "a"; the segment matcher stays linear in the text.
  const text = "a".repeat(200_000);

  it.each([
    ["*a*a*a*a*a*a*a*a*a*a*a*a*a*a*a*a*a*a*a*a*a*a*a*a*b", false],
    ["*a*a*a*a*a*a*a*a*a*a*a*a*a*a*a*a*a*a*a*a*a*a*a*a*", true],
    ["*aaaaaaaaaaaaaaaaaaaaaaaaaaaaaab*", false],
    ["*a?a?a?a?a?a?a?a?a?a?a?a?a?a?a?b*", false],
    ["*?*?*?*?*?*?*?*?*?*?*?*?*?*?*?*?*?*?*?*?*?*?*?*?*b", false],
  ])("answers %s without a blow-up", (pattern, expected) => {
    const matcher = compileGlob(pattern);
    expect(withoutBlowUp(() => matcher(text))).toBe(expected);
  });

  it("finds a match at the very end of a long text", () => {
    expect(withoutBlowUp(() => globMatch("*a*a*a*ab", `${text}b`))).toBe(true);
  });
});
