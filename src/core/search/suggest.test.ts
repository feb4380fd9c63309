import { describe, expect, it } from "vitest";
import { suggest } from "./suggest";

const TAGS = { environment: ["production", "staging"], "browser.name": ["Chrome", "Firefox"], release: ["1.0.0", "my app 2"] };
const at = (text: string, caret = text.length) => suggest(text, caret, TAGS);

describe("search suggestions", () => {
  it("offers known keys for the letters typed, ending in a colon", () => {
    const s = at("lev");
    expect(s.map((x) => x.label)).toEqual(["level:"]);
    expect(s[0]).toMatchObject({ text: "level:", caret: 6 });
  });

  it("offers tag keys seen in the org alongside the built-in ones", () => {
    expect(at("bro").map((x) => x.label)).toEqual(["browser.name:"]);
  });

  it("offers the fixed values of level and is, filtered by what follows the colon", () => {
    expect(at("level:").map((x) => x.label)).toEqual(["fatal", "error", "warning", "info", "debug"]);
    expect(at("level:e")[0]).toMatchObject({ label: "error", text: "level:error ", caret: 12 });
    expect(at("is:unr").map((x) => x.label)).toEqual(["unresolved"]);
  });

  it("offers the org's tag values for a tag key, quoting values with spaces", () => {
    expect(at("environment:pr").map((x) => x.label)).toEqual(["production"]);
    expect(at("release:my")[0]?.text).toBe('release:"my app 2" ');
  });

  it("offers tag keys as values of has:", () => {
    expect(at("has:env").map((x) => x.label)).toEqual(["environment"]);
  });

  it("completes only the term under the caret and keeps the rest of the query", () => {
    const text = "is:unresolved lev browser.name:Chrome";
    const s = suggest(text, "is:unresolved lev".length, TAGS);
    expect(s[0]).toMatchObject({ text: "is:unresolved level: browser.name:Chrome", caret: "is:unresolved level:".length });
  });

  it("keeps a leading ! when completing a negated term", () => {
    expect(at("!environment:st")[0]?.text).toBe("!environment:staging ");
  });

  it("offers nothing for an empty term, an exact match or an unknown key", () => {
    expect(at("")).toEqual([]);
    expect(at("is:unresolved ")).toEqual([]);
    expect(at("level:error")).toEqual([]);
    expect(at("nosuchkey:x")).toEqual([]);
  });
});
