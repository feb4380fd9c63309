import { describe, expect, it } from "vitest";
import { nextState } from "./evaluate";
import type { MetricTrigger } from "./schema";

const triggers: MetricTrigger[] = [
  { label: "critical", alertThreshold: 10, actions: [] },
  { label: "warning", alertThreshold: 5, actions: [] },
];
const above = { thresholdType: "above" as const, resolveThreshold: null, triggers };

describe("nextState", () => {
  it("stays ok at or under the thresholds of an above rule", () => {
    expect(nextState(above, "ok", 5)).toEqual({ state: "ok", transition: null, threshold: null });
  });

  it("goes critical past the critical threshold, once", () => {
    expect(nextState(above, "ok", 11)).toEqual({ state: "critical", transition: "critical", threshold: 10 });
    expect(nextState(above, "critical", 50)).toEqual({ state: "critical", transition: null, threshold: 10 });
  });

  it("announces a warning between the two thresholds, and from critical down to it", () => {
    expect(nextState(above, "ok", 6)).toEqual({ state: "warning", transition: "warning", threshold: 5 });
    expect(nextState(above, "critical", 6)).toEqual({ state: "warning", transition: "warning", threshold: 5 });
    expect(nextState(above, "warning", 11).transition).toBe("critical");
  });

  it("resolves under the lowest trigger without a resolve threshold", () => {
    expect(nextState(above, "critical", 5)).toEqual({ state: "ok", transition: "resolved", threshold: 5 });
  });

  it("keeps the alert between the lowest trigger and the resolve threshold", () => {
    const rule = { ...above, resolveThreshold: 2 };
    expect(nextState(rule, "critical", 3)).toEqual({ state: "critical", transition: null, threshold: null });
    expect(nextState(rule, "critical", 1)).toEqual({ state: "ok", transition: "resolved", threshold: 2 });
  });

  it("reads a below rule the other way round", () => {
    const below = {
      thresholdType: "below" as const,
      resolveThreshold: 20,
      triggers: [{ label: "critical" as const, alertThreshold: 10, actions: [] }],
    };
    expect(nextState(below, "ok", 9).transition).toBe("critical");
    expect(nextState(below, "critical", 15).transition).toBeNull();
    expect(nextState(below, "critical", 21)).toEqual({ state: "ok", transition: "resolved", threshold: 20 });
  });
});
