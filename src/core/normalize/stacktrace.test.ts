import { describe, expect, it } from "vitest";
import { MAX_COUNT } from "./limits";
import { normalizeExceptions, normalizeStacktrace } from "./stacktrace";
import { Warnings } from "./values";

function frames(count: number): Array<Record<string, unknown>> {
  return Array.from({ length: count }, (_, i) => ({
    function: `f${i}`,
    filename: "app.js",
    lineno: i + 1,
    vars: { i },
    pre_context: ["a"],
    post_context: ["b"],
  }));
}

describe("normalizeStacktrace", () => {
  it("keeps a short stack whole, context included", () => {
    const trace = normalizeStacktrace({ frames: frames(10) }, new Warnings(), "t");
    expect(trace?.frames).toHaveLength(10);
    expect(trace?.frames[5]).toMatchObject({ vars: { i: 5 }, pre_context: ["a"], post_context: ["b"] });
    expect(trace?.frames_omitted).toBeUndefined();
  });

  it("keeps the first and the newest frames of a huge stack and records the omitted range", () => {
    const warnings = new Warnings();
    const trace = normalizeStacktrace({ frames: frames(10_000) }, warnings, "exception 0");
    const kept = trace?.frames ?? [];
    expect(kept).toHaveLength(MAX_COUNT.frames);
    expect(kept[0]?.function).toBe("f0");
    expect(kept[MAX_COUNT.framesKeptFromStart - 1]?.function).toBe(`f${MAX_COUNT.framesKeptFromStart - 1}`);
    expect(kept[MAX_COUNT.framesKeptFromStart]?.function).toBe(`f${10_000 - (MAX_COUNT.frames - MAX_COUNT.framesKeptFromStart)}`);
    expect(kept.at(-1)?.function).toBe("f9999");
    expect(trace?.frames_omitted).toEqual([25, 10_000 - 225]);
    expect(warnings.done()).toEqual(["exception 0: 9750 of 10000 frames dropped from the middle of the stack"]);
  });

  it("strips vars and context from middle frames beyond 50, keeping them at both ends", () => {
    const kept = normalizeStacktrace({ frames: frames(80) }, new Warnings(), "t")?.frames ?? [];
    expect(kept[0]?.vars).toEqual({ i: 0 });
    expect(kept[24]?.vars).toEqual({ i: 24 });
    expect(kept[25]?.vars).toBeUndefined();
    expect(kept[40]?.pre_context).toBeUndefined();
    expect(kept[54]?.post_context).toBeUndefined();
    expect(kept[55]?.vars).toEqual({ i: 55 });
    expect(kept[79]?.vars).toEqual({ i: 79 });
  });

  it("skips frames that are not objects or name no file, function or address", () => {
    const trace = normalizeStacktrace({ frames: [null, 5, {}, { lineno: 3 }, { function: "ok" }] }, new Warnings(), "t");
    expect(trace?.frames).toEqual([{ function: "ok" }]);
  });
});

describe("normalizeExceptions", () => {
  it("accepts a bare list and keeps the newest of too many chained exceptions", () => {
    const list = Array.from({ length: 40 }, (_, i) => ({ type: `E${i}` }));
    const warnings = new Warnings();
    const values = normalizeExceptions(list, warnings)?.values ?? [];
    expect(values).toHaveLength(MAX_COUNT.exceptions);
    expect(values.at(-1)?.type).toBe("E39");
    expect(warnings.done()).toEqual(["exception: 15 oldest chained exceptions dropped"]);
  });

  it("renders a non-string value as text and gives a mechanism without type 'generic'", () => {
    const values = normalizeExceptions({ values: [{ value: { code: 7 }, mechanism: { handled: false } }] }, new Warnings())?.values;
    expect(values).toEqual([{ value: '{"code":7}', mechanism: { type: "generic", handled: false } }]);
  });
});
