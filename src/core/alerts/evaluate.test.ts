import { describe, expect, it } from "vitest";
import { firedOn, ruleFires, type IssueFacts } from "./evaluate";
import { EVENT_FREQUENCY, USER_FREQUENCY } from "./frequency-conditions";
import { AGE_FILTER, ASSIGNED_FILTER, LATEST_RELEASE_FILTER, TAGGED_FILTER } from "./issue-filters";
import { DEFAULT_RULE, FIRST_SEEN, LEVEL_FILTER, REGRESSION, type AlertRule } from "./rule-schema";

const rule = (over: Partial<AlertRule> = {}): AlertRule => ({
  ...DEFAULT_RULE,
  environment: null,
  id: 1,
  projectId: 1,
  status: "active",
  isDefault: false,
  createdBy: null,
  createdAt: 0,
  updatedAt: 0,
  secret: "",
  ...over,
});
const error: IssueFacts = {
  level: "error",
  environment: "production",
  tags: [],
  release: null,
  latestRelease: null,
  firstSeen: 0,
  assigneeId: null,
  assigneeTeamId: null,
  at: 0,
};

describe("whether a rule fires for an issue change", () => {
  it("fires the default rule for a new issue only", () => {
    expect(ruleFires(rule(), "created", error)).toBe(true);
    expect(ruleFires(rule(), "regressed", error)).toBe(false);
    expect(ruleFires(rule(), "resolved", error)).toBe(false);
  });

  it("reads actionMatch over the conditions: all, any, none", () => {
    const both = [{ id: FIRST_SEEN }, { id: REGRESSION }] as AlertRule["conditions"];
    expect(ruleFires(rule({ conditions: both, actionMatch: "all" }), "created", error)).toBe(false);
    expect(ruleFires(rule({ conditions: both, actionMatch: "any" }), "regressed", error)).toBe(true);
    expect(ruleFires(rule({ conditions: [{ id: FIRST_SEEN }], actionMatch: "none" }), "regressed", error)).toBe(true);
    expect(ruleFires(rule({ conditions: [{ id: FIRST_SEEN }], actionMatch: "none" }), "created", error)).toBe(false);
  });

  it("applies the level filter with eq, gte and lte, and filterMatch", () => {
    const gteError = [{ id: LEVEL_FILTER, match: "gte", level: "40" }] as AlertRule["filters"];
    expect(ruleFires(rule({ filters: gteError }), "created", { ...error, level: "fatal" })).toBe(true);
    expect(ruleFires(rule({ filters: gteError }), "created", { ...error, level: "warning" })).toBe(false);
    const lteInfo = [{ id: LEVEL_FILTER, match: "lte", level: "20" }] as AlertRule["filters"];
    expect(ruleFires(rule({ filters: lteInfo }), "created", { ...error, level: "debug" })).toBe(true);
    expect(ruleFires(rule({ filters: [...gteError, ...lteInfo], filterMatch: "any" }), "created", { ...error, level: "warning" })).toBe(
      false,
    );
    expect(ruleFires(rule({ filters: gteError, filterMatch: "none" }), "created", { ...error, level: "warning" })).toBe(true);
  });

  it("keeps to its environment and does nothing while switched off", () => {
    expect(ruleFires(rule({ environment: "staging" }), "created", error)).toBe(false);
    expect(ruleFires(rule({ environment: "production" }), "created", error)).toBe(true);
    expect(ruleFires(rule({ status: "disabled" }), "created", error)).toBe(false);
  });

  it("fires a frequency condition when the count over its interval is above value, on changes that carry events", () => {
    const tenAnHour = rule({ conditions: [{ id: EVENT_FREQUENCY, value: 10, interval: "1h", comparisonType: "count" }] });
    const counts = (events: number, users: number) => (interval: string) => (interval === "1h" ? { events, users } : undefined);
    expect(ruleFires(tenAnHour, "seen", error, counts(10, 1))).toBe(false);
    expect(ruleFires(tenAnHour, "seen", error, counts(11, 1))).toBe(true);
    expect(ruleFires(tenAnHour, "created", error, counts(11, 1))).toBe(true);
    // A change without events (a person's) has no counts: the condition does not hold.
    expect(ruleFires(tenAnHour, "regressed", error)).toBe(false);
    const users = rule({ conditions: [{ id: USER_FREQUENCY, value: 2, interval: "1h", comparisonType: "count" }] });
    expect(ruleFires(users, "seen", error, counts(100, 2))).toBe(false);
    expect(ruleFires(users, "seen", error, counts(1, 3))).toBe(true);
    // The default rule is about new issues: a `seen` change never fires it.
    expect(ruleFires(rule(), "seen", error, counts(100, 100))).toBe(false);
  });

  it("says a rule fired on a frequency (seen) unless one of its state conditions names the change", () => {
    const busy = { id: EVENT_FREQUENCY, value: 2, interval: "1h", comparisonType: "count" } as AlertRule["conditions"][number];
    // Three events digested in the batch that created the issue: the count fired it, not the creation.
    expect(firedOn(rule({ conditions: [busy] }), "created")).toBe("seen");
    expect(firedOn(rule({ conditions: [busy] }), "seen")).toBe("seen");
    expect(firedOn(rule({ conditions: [{ id: FIRST_SEEN }, busy], actionMatch: "any" }), "created")).toBe("created");
    expect(firedOn(rule({ conditions: [{ id: REGRESSION }, busy], actionMatch: "any" }), "created")).toBe("seen");
    // Without frequency conditions, or when no condition may hold ("none"), the change is the reason.
    expect(firedOn(rule(), "created")).toBe("created");
    expect(firedOn(rule({ conditions: [], actionMatch: "all" }), "regressed")).toBe("regressed");
    expect(firedOn(rule({ conditions: [busy], actionMatch: "none" }), "created")).toBe("created");
  });

  it("matches the event's tags as Sentry does: keys and values without case, eq ne sw ew co nc is ns", () => {
    const tagged = (match: string, value = "") =>
      rule({ filters: [{ id: TAGGED_FILTER, key: "Browser.Name", match, value }] as AlertRule["filters"] });
    const chrome = { ...error, tags: [["browser.name", "Chrome"]] as Array<[string, string]> };
    const cases: Array<[string, string, boolean, boolean]> = [
      // match, value, on a Chrome event, on an event without the tag
      ["eq", "chrome", true, false],
      ["ne", "chrome", false, true],
      ["sw", "chr", true, false],
      ["ew", "ome", true, false],
      ["co", "hro", true, false],
      ["nc", "hro", false, true],
      ["is", "", true, false],
      ["ns", "", false, true],
    ];
    for (const [match, value, onChrome, onNone] of cases) {
      expect([match, ruleFires(tagged(match, value), "created", chrome)]).toEqual([match, onChrome]);
      expect([match, ruleFires(tagged(match, value), "created", error)]).toEqual([match, onNone]);
    }
  });

  it("compares the issue's age to the change's time, and reads the assignee and the latest release", () => {
    const day = 86_400_000;
    const older = rule({ filters: [{ id: AGE_FILTER, comparison_type: "older", value: 2, time: "day" }] });
    const newer = rule({ filters: [{ id: AGE_FILTER, comparison_type: "newer", value: 2, time: "day" }] });
    const threeDaysOld = { ...error, firstSeen: 0, at: 3 * day };
    const oneDayOld = { ...error, firstSeen: 0, at: day };
    expect([ruleFires(older, "created", threeDaysOld), ruleFires(older, "created", oneDayOld)]).toEqual([true, false]);
    expect([ruleFires(newer, "created", threeDaysOld), ruleFires(newer, "created", oneDayOld)]).toEqual([false, true]);

    const unassigned = rule({ filters: [{ id: ASSIGNED_FILTER, targetType: "Unassigned", targetIdentifier: null }] });
    const toMember = rule({ filters: [{ id: ASSIGNED_FILTER, targetType: "Member", targetIdentifier: 7 }] });
    const toTeam = rule({ filters: [{ id: ASSIGNED_FILTER, targetType: "Team", targetIdentifier: 3 }] });
    expect([unassigned, toMember, toTeam].map((r) => ruleFires(r, "created", error))).toEqual([true, false, false]);
    expect([unassigned, toMember, toTeam].map((r) => ruleFires(r, "created", { ...error, assigneeId: 7 }))).toEqual([false, true, false]);
    expect([unassigned, toMember, toTeam].map((r) => ruleFires(r, "created", { ...error, assigneeTeamId: 3 }))).toEqual([
      false,
      false,
      true,
    ]);

    const latest = rule({ filters: [{ id: LATEST_RELEASE_FILTER }] });
    expect(ruleFires(latest, "created", { ...error, release: "2.0", latestRelease: "2.0" })).toBe(true);
    expect(ruleFires(latest, "created", { ...error, release: "1.9", latestRelease: "2.0" })).toBe(false);
    expect(ruleFires(latest, "created", { ...error, release: null, latestRelease: null })).toBe(false);
  });
});
