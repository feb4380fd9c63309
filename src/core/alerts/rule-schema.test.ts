import { describe, expect, it } from "vitest";
import { validate } from "../validate";
import { EMAIL_ACTION, FIRST_SEEN, LEVEL_FILTER, RuleInput } from "./rule-schema";

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
    expect(rule.filters.map((f) => f.level)).toEqual(["50", "30"]);
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
});
