import { describe, expect, it } from "vitest";
import { ruleFires } from "./evaluate";
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
const error = { level: "error", environment: "production" };

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
});
