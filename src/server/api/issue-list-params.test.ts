import { describe, expect, it } from "vitest";
import { parseIssueQuery } from "../../core/search/parse";
import { issueQueryFrom } from "./issue-list-params";

const NOW = Date.parse("2026-05-01T12:00:00Z");
const of = (search: string, base = "is:unresolved") => issueQueryFrom(new URLSearchParams(search), base, NOW);

describe("the organization issue list's filters as a search", () => {
  it("folds repeated environments into one list the search parses back, quotes and wildcards taken literally", () => {
    const { text } = of('environment=prod&environment=a "b", c*&environment=');
    expect(text).toBe('is:unresolved environment:["prod", "a \\"b\\", c\\*"]');
    expect(parseIssueQuery(text).ok).toBe(true);
    expect(of("", "").text).toBe("");
  });

  it("reads statsPeriod, and start and end in UTC when they carry no zone", () => {
    expect(of("statsPeriod=24h").since).toBe(NOW - 86_400_000);
    expect(of("statsPeriod=2w").since).toBe(NOW - 14 * 86_400_000);
    const range = of("start=2026-04-01T00:00:00&end=2026-04-02T00:00:00.000");
    expect(range.since).toBe(Date.parse("2026-04-01T00:00:00Z"));
    expect(range.text).toBe("is:unresolved firstSeen:<=2026-04-02T00:00:00.000Z");
    expect(of("start=2026-04-01T02:00:00%2B02:00&end=2026-04-02").since).toBe(Date.parse("2026-04-01T00:00:00Z"));
    expect(of("").since).toBeUndefined();
  });

  it("refuses a period, a date or half a range it cannot read", () => {
    for (const bad of ["statsPeriod=forever", "statsPeriod=24", "start=2026-04-01", "start=soon&end=later"])
      expect(() => of(bad)).toThrow(/statsPeriod|start|end/);
  });
});
