/**
 * Grouping runs on attacker-controlled events and admin-written rules: its cost must stay
 * linear in their size: none of these inputs may be quadratic or exponential (the shared blow-up
 * bound catches that; how fast grouping runs is measured in bench/).
 */
import { describe, expect, it } from "vitest";
import { computeGrouping } from "./compute";
import { deriveIssueFields } from "./issue-fields";
import { parseFingerprintRules } from "./rules/parse";
import { exception, makeEvent } from "./test-events";
import type { Frame, NormalizedEvent } from "../normalize/types";
import { normalizeEvent } from "../normalize";
import { withoutBlowUp } from "../../../test/support/blow-up";

function hugeEvent(): NormalizedEvent {
  const frame = (i: number): Frame => ({
    module: `m${i % 7}.${"x".repeat(200)}`,
    filename: `/srv/${"a1b2c3d4-".repeat(25)}/f${i}.js`,
    function: `Object.${"f".repeat(250)}${i}`,
    context_line: `${"'q' 1.2.3.4 ".repeat(80)}`,
    lineno: i,
    in_app: i % 2 === 0,
  });
  const frames = Array.from({ length: 800 }, (_, i) => frame(i));
  const value = "'a 1.2.3.4 0xdead ".repeat(500);
  return makeEvent({
    platform: "javascript",
    exception: { values: Array.from({ length: 25 }, (_, i) => exception(`Error${i}`, value, frames)) },
    logentry: { formatted: "1.".repeat(4000) },
  });
}

describe("hostile input", () => {
  it("groups an event with 20,000 long frames without a blow-up", () => {
    const event = hugeEvent();
    expect(withoutBlowUp(() => computeGrouping(event)).hash).toMatch(/^[0-9a-f]{32}$/);
    expect(withoutBlowUp(() => deriveIssueFields(event))).toBeDefined();
  });

  it("normalizes and groups a raw payload with huge frame lists and long strings", () => {
    const raw = {
      platform: "node",
      message: "x".repeat(100_000),
      exception: {
        values: Array.from({ length: 40 }, () => ({
          type: "E".repeat(10_000),
          value: '"'.repeat(50_000),
          stacktrace: {
            frames: Array.from({ length: 2000 }, (_, i) => ({ function: "f".repeat(5000), filename: `/a${i}.js`, in_app: true })),
          },
        })),
      },
    };
    const normalized = normalizeEvent(raw, { receivedAt: new Date() });
    if (!normalized.ok) throw new Error(normalized.reason);
    expect(withoutBlowUp(() => computeGrouping(normalized.event)).hash).toMatch(/^[0-9a-f]{32}$/);
  });

  it("matches 500 star-heavy rules against thousands of frames without a blow-up", () => {
    const rules = Array.from({ length: 500 }, (_, i) => `stack.function:"*a*a*a*a*a*b${i}" stack.abs_path:"**/x/**/y/*.js" -> r${i}`).join(
      "\n",
    );
    const parsed = parseFingerprintRules(rules);
    if (!parsed.ok) throw new Error(parsed.errors[0]!.message);
    const frames = Array.from({ length: 250 }, (_, i) => ({
      function: "a".repeat(250),
      abs_path: `/x/${"x/".repeat(60)}y/${i}.js`,
      in_app: true,
    }));
    const event = makeEvent({ exception: { values: Array.from({ length: 8 }, () => exception("E", "v", frames)) } });
    expect(withoutBlowUp(() => computeGrouping(event, { rules: parsed.rules })).fingerprint).toBeNull();
  });

  it("stops matching when an event exhausts the step budget, and the default grouping decides", () => {
    const rules =
      Array.from({ length: 499 }, (_, i) => `stack.function:"*a*a*a*a*a*a*a*a*b?" -> r${i}`).join("\n") + "\nerror.type:E -> last";
    const parsed = parseFingerprintRules(rules);
    if (!parsed.ok) throw new Error(parsed.errors[0]!.message);
    const frames = Array.from({ length: 250 }, (_, i) => ({ function: `b${"a".repeat(200)}${i}`, in_app: true }));
    const event = makeEvent({
      exception: {
        values: Array.from({ length: 8 }, (_, k) =>
          exception(
            "E",
            "v",
            frames.map((f) => ({ ...f, function: f.function + k })),
          ),
        ),
      },
    });
    // The budget is counted in steps, not time: its effect is that no rule applies.
    const value = computeGrouping(event, { rules: parsed.rules });
    expect(value.fingerprint).toBeNull();
    expect(value.hash).toBe(computeGrouping(event).hash);
  });

  it("parses hostile rules text without a blow-up and reports bounded errors", () => {
    const texts = [
      '"'.repeat(65_000),
      "{{".repeat(32_000),
      `message:"${'\\"'.repeat(1000)}\n`.repeat(30),
      `error.type:x -> ${"{{".repeat(1000)}\n`.repeat(30),
      `error.type:${"[a-z]*".repeat(300)} -> x\n`.repeat(30),
      `${"error.type:x ".repeat(30)}-> ${"{{ a }}".repeat(200)}\n`.repeat(30),
    ];
    for (const text of texts) {
      const value = withoutBlowUp(() => parseFingerprintRules(text));
      if (!value.ok) expect(value.errors.length).toBeLessThanOrEqual(50);
    }
  });
});
