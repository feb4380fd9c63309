import { describe, expect, it } from "vitest";
import { sameOriginPath } from "./safe-next";

const ORIGIN = "https://telltale.example";

describe("sameOriginPath", () => {
  it.each([
    ["/orgs/acme/issues?query=is%3Aunresolved#top", "/orgs/acme/issues?query=is%3Aunresolved#top"],
    ["/", "/"],
    ["orgs", "/orgs"],
    ["https://telltale.example/orgs", "/orgs"],
    ["/%2F%2Fevil.example", "/%2F%2Fevil.example"],
    ["/%09/evil.example", "/%09/evil.example"],
    ["/%5Cevil.example", "/%5Cevil.example"],
    ["/.//evil.example", "/evil.example"],
    ["/orgs/..//evil.example", "/evil.example"],
  ])("keeps the same-origin path %j as %j", (next, path) => {
    expect(sameOriginPath(next, ORIGIN)).toBe(path);
  });

  it.each([
    ["a TAB between the slashes", "/\t/evil.example"],
    ["a newline between the slashes", "/\n/evil.example"],
    ["a carriage return between the slashes", "/\r/evil.example"],
    ["a leading TAB", "\t//evil.example"],
    ["two slashes", "//evil.example"],
    ["slash and backslash", "/\\evil.example"],
    ["backslash and slash", "\\/evil.example"],
    ["two backslashes", "\\\\evil.example"],
    ["three slashes", "///evil.example"],
    ["an absolute URL", "https://evil.example/"],
    ["another port of this host", "https://telltale.example:8443/"],
    ["plain http to this host", "http://telltale.example/"],
    ["userinfo that looks like this host", "https://telltale.example@evil.example/"],
    ["javascript:", "javascript:alert(document.domain)"],
    ["JavaScript: with a TAB", "java\tscript:alert(1)"],
    ["data:", "data:text/html,<script>alert(1)</script>"],
    ["a scheme-relative URL with a leading space", " //evil.example"],
  ])("sends %s home", (_name, next) => {
    expect(sameOriginPath(next, ORIGIN)).toBe("/");
  });

  it("sends empty and missing values home", () => {
    expect(sameOriginPath("", ORIGIN)).toBe("/");
    expect(sameOriginPath(undefined, ORIGIN)).toBe("/");
    expect(sameOriginPath(null, ORIGIN)).toBe("/");
  });
});
