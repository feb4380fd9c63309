import { describe, expect, it } from "vitest";
import { computeGrouping } from "./compute";
import { parseFingerprintRules } from "./rules/parse";
import { summarizeGrouping } from "./summary";
import { appFrame, errorEvent, libFrame, makeEvent, messageEvent } from "./test-events";
import type { NormalizedEvent } from "../normalize/types";

const by = (event: NormalizedEvent) => summarizeGrouping(computeGrouping(event)).groupedBy;

describe("summarizeGrouping", () => {
  it("says what decided the hash", () => {
    expect(by(errorEvent("E", "x", [appFrame("f")]))).toBe("in-app stack trace");
    expect(by(errorEvent("E", "x", [libFrame("f")]))).toBe("stack trace");
    expect(by(errorEvent("E", "Order 5 failed"))).toBe("exception");
    expect(by(messageEvent("hello"))).toBe("message");
    expect(by(makeEvent())).toBe("nothing");
    expect(by(messageEvent("hello", { fingerprint: ["k"] }))).toBe("SDK fingerprint");
  });

  it("names the values that were hashed", () => {
    const rules = parseFingerprintRules("message:hello* -> greeting, {{ level }}");
    if (!rules.ok) throw new Error("rules");
    const summary = summarizeGrouping(computeGrouping(messageEvent("hello there"), { rules: rules.rules }));
    expect(summary).toMatchObject({
      groupedBy: "fingerprint rule",
      variant: "fingerprint",
      values: ["greeting", "info"],
      config: "telltale:2026-11-22",
    });
    expect(summarizeGrouping(computeGrouping(errorEvent("E", "Order 5 failed"))).values).toEqual(["E", "Order <int> failed"]);
  });
});
