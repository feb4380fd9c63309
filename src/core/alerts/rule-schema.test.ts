import { describe, expect, it } from "vitest";
import { validate } from "../validate";
import { EVENT_FREQUENCY, USER_FREQUENCY } from "./frequency-conditions";
import { AGE_FILTER, ASSIGNED_FILTER, LATEST_RELEASE_FILTER, TAGGED_FILTER } from "./issue-filters";
import { describeCondition, describeFilter, EMAIL_ACTION, FIRST_SEEN, LEVEL_FILTER, RuleInput } from "./rule-schema";

const base = { name: "r", conditions: [{ id: FIRST_SEEN }], actions: [{ id: EMAIL_ACTION, targetType: "IssueOwners" }] };

describe("the rule shape (Sentry's)", () => {
  it("fills Sentry's defaults and drops fields it does not keep", () => {
    expect(
      validate(RuleInput, {
        ...base,
        owner: "team:1",
        projects: ["web"],
        conditions: [{ id: FIRST_SEEN, name: "A new issue is created" }],
      }),
    ).toEqual({
      name: "r",
      actionMatch: "all",
      filterMatch: "all",
      frequency: 30,
      conditions: [{ id: FIRST_SEEN }],
      filters: [],
      actions: [{ id: EMAIL_ACTION, targetType: "IssueOwners", targetIdentifier: null, fallthroughType: "ActiveMembers" }],
    });
  });

  it("takes a level by number, numeric string or name, and an id as a number or digits", () => {
    const rule = validate(RuleInput, {
      ...base,
      frequency: "60",
      filters: [
        { id: LEVEL_FILTER, match: "eq", level: 50 },
        { id: LEVEL_FILTER, match: "lte", level: "warning" },
      ],
      actions: [{ id: EMAIL_ACTION, targetType: "Team", targetIdentifier: "7" }],
    });
    expect(rule.frequency).toBe(60);
    expect(rule.filters.map((f) => (f.id === LEVEL_FILTER ? f.level : null))).toEqual(["50", "30"]);
    expect(rule.actions).toEqual([{ id: EMAIL_ACTION, targetType: "Team", targetIdentifier: 7 }]);
  });

  it("says what is wrong, by field", () => {
    expect(() => validate(RuleInput, { ...base, actions: [{ id: EMAIL_ACTION, targetType: "Member" }] })).toThrow(
      "actions.0.targetIdentifier: targetIdentifier is the member's id",
    );
    expect(() => validate(RuleInput, { ...base, filters: [{ id: LEVEL_FILTER, match: "eq", level: "loud" }] })).toThrow(
      /filters\.0\.level: level is one of/,
    );
    expect(() => validate(RuleInput, { ...base, frequency: 1 })).toThrow("frequency: frequency is 5 to 43200 minutes");
    expect(() => validate(RuleInput, { ...base, actionMatch: "some" })).toThrow(/^actionMatch:/);
    expect(() => validate(RuleInput, { ...base, name: " " })).toThrow("name: name is required");
    expect(() => validate(RuleInput, { ...base, conditions: [{ name: "no id" }] })).toThrow(/conditions\.0\.id/);
  });

  it("takes Sentry's frequency conditions and refuses a percent comparison by name", () => {
    const rule = validate(RuleInput, {
      ...base,
      conditions: [
        { id: EVENT_FREQUENCY, value: 100, comparisonType: "count", interval: "1h", name: "ignored" },
        { id: USER_FREQUENCY, value: "5", interval: "30d" },
      ],
    });
    expect(rule.conditions).toEqual([
      { id: EVENT_FREQUENCY, value: 100, comparisonType: "count", interval: "1h" },
      { id: USER_FREQUENCY, value: 5, comparisonType: "count", interval: "30d" },
    ]);
    expect(rule.conditions.map(describeCondition)).toEqual([
      "The issue is seen more than 100 times in one hour",
      "The issue is seen by more than 5 users in 30 days",
    ]);
    expect(() =>
      validate(RuleInput, { ...base, conditions: [{ id: EVENT_FREQUENCY, value: 10, interval: "1h", comparisonType: "percent" }] }),
    ).toThrow(/^conditions\.0\.comparisonType: comparisonType is "count"/);
    expect(() => validate(RuleInput, { ...base, conditions: [{ id: EVENT_FREQUENCY, value: 10, interval: "2h" }] })).toThrow(
      "conditions.0.interval: interval is one of 1m, 5m, 15m, 1h, 1d, 1w, 30d",
    );
    expect(() => validate(RuleInput, { ...base, conditions: [{ id: USER_FREQUENCY, value: -1, interval: "1h" }] })).toThrow(
      "conditions.0.value: value is 0 or more",
    );
  });

  it("takes the tag, age, assignee and latest-release filters in Sentry's shape", () => {
    const rule = validate(RuleInput, {
      ...base,
      filters: [
        { id: TAGGED_FILTER, key: "browser.name", match: "eq", value: "Chrome" },
        { id: TAGGED_FILTER, key: "customer", match: "is", value: "ignored for 'is'" },
        { id: AGE_FILTER, comparison_type: "older", value: 3, time: "week" },
        { id: ASSIGNED_FILTER, targetType: "Member", targetIdentifier: "42" },
        { id: ASSIGNED_FILTER, targetType: "Unassigned" },
        { id: LATEST_RELEASE_FILTER },
      ],
    });
    expect(rule.filters.map(describeFilter)).toEqual([
      "The event's tag browser.name equals Chrome",
      "The event's tag customer is set",
      "The issue is older than 3 weeks",
      "The issue is assigned to member 42",
      "The issue is unassigned",
      "The event is from the latest release",
    ]);
    expect(() => validate(RuleInput, { ...base, filters: [{ id: TAGGED_FILTER, key: "a", match: "eq" }] })).toThrow(
      "filters.0.value: value is required to match with 'eq'",
    );
    expect(() => validate(RuleInput, { ...base, filters: [{ id: TAGGED_FILTER, key: "a", match: "like", value: "x" }] })).toThrow(
      "filters.0.match: match is one of eq, ne, sw, ew, co, nc, is, ns",
    );
    expect(() => validate(RuleInput, { ...base, filters: [{ id: AGE_FILTER, comparison_type: "older", value: 3, time: "year" }] })).toThrow(
      "filters.0.time: time is minute, hour, day or week",
    );
    expect(() => validate(RuleInput, { ...base, filters: [{ id: ASSIGNED_FILTER, targetType: "Team" }] })).toThrow(
      "filters.0.targetIdentifier: targetIdentifier is the team's id",
    );
  });
});
