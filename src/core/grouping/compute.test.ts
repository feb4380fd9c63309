import { describe, expect, it } from "vitest";
import { contributingValues, findComponent } from "./component";
import { computeGrouping, EMPTY_HASH } from "./compute";
import { GROUPING_CONFIG, groupingStrategies } from "./config";
import { appFrame, errorEvent, exception, libFrame, makeEvent, messageEvent } from "./test-events";
import type { GroupingResult, GroupingVariant } from "./types";
import type { Frame, NormalizedEvent } from "../normalize/types";

function used(result: GroupingResult): GroupingVariant {
  return result.variants.find((v) => v.contributes)!;
}

function values(event: NormalizedEvent): string[] {
  const variant = used(computeGrouping(event));
  return variant.component ? contributingValues(variant.component) : variant.values!;
}

const hash = (event: NormalizedEvent) => computeGrouping(event).hash;

describe("default grouping: stack traces", () => {
  it("stores the config version with the hash", () => {
    const result = computeGrouping(errorEvent("TypeError", "x", [appFrame("f")]));
    expect(result.config).toBe(GROUPING_CONFIG);
    expect(GROUPING_CONFIG).toBe("telltale:2026-11-22");
    expect(result.hash).toMatch(/^[0-9a-f]{32}$/);
    expect(groupingStrategies().map((s) => s.id)).toContain(GROUPING_CONFIG);
  });

  it("ignores line and column numbers when a function or source line is there", () => {
    const a = errorEvent("TypeError", "x", [appFrame("render", { lineno: 10, colno: 4 })]);
    const b = errorEvent("TypeError", "x", [appFrame("render", { lineno: 310, colno: 9 })]);
    expect(hash(a)).toBe(hash(b));
  });

  it("uses the line number when a frame has neither function nor source line", () => {
    const frame = (lineno: number): Frame => ({ filename: "/static/js/app.3f2a1b9c.js", lineno, colno: 7, in_app: true });
    const a = errorEvent("TypeError", "x", [frame(1)], { platform: "javascript" });
    expect(values(a)).toEqual(["TypeError", "app.<hash>.js", "1:7"]);
    expect(hash(a)).not.toBe(hash(errorEvent("TypeError", "x", [frame(2)], { platform: "javascript" })));
  });

  it("tells different exception types apart", () => {
    expect(hash(errorEvent("TypeError", "x", [appFrame("f")]))).not.toBe(hash(errorEvent("ReferenceError", "x", [appFrame("f")])));
  });

  it("tells different functions and source lines apart", () => {
    expect(hash(errorEvent("E", "x", [appFrame("f")]))).not.toBe(hash(errorEvent("E", "x", [appFrame("g")])));
    const line = (context_line: string) => errorEvent("E", "x", [appFrame("f", { context_line })]);
    expect(hash(line("a.b()"))).not.toBe(hash(line("a.c()")));
    expect(hash(line("  a.b(  1)"))).toBe(hash(line("a.b( 1)")));
  });

  it("groups by in-app frames only, so library frames may change", () => {
    const a = errorEvent("E", "x", [appFrame("main"), libFrame("dispatch"), appFrame("handler")]);
    const b = errorEvent("E", "x", [appFrame("main"), libFrame("dispatch_v2"), libFrame("wrap"), appFrame("handler")]);
    expect(hash(a)).toBe(hash(b));
    const result = computeGrouping(a);
    expect(result.variants.map((v) => [v.id, v.contributes])).toEqual([
      ["app", true],
      ["system", false],
    ]);
    const lib = findComponent(result.variants[0]!.component!, "stacktrace")!.values[1];
    expect(lib).toMatchObject({ id: "frame", contributes: false, hint: "non app frame" });
    expect(result.hashes).toEqual([result.hash, result.variants[1]!.hash]);
  });

  it("uses all frames when none is in app", () => {
    const event = errorEvent("E", "x", [libFrame("a"), libFrame("b")]);
    const result = computeGrouping(event);
    expect(used(result).id).toBe("system");
    expect(result.variants[0]!.hint).toBe("ignored because no in-app frame contributes; all frames are used");
    expect(values(event)).toEqual(["E", "lib.core", "a", "a()", "lib.core", "b", "b()"]);
    expect(hash(event)).not.toBe(hash(errorEvent("E", "x", [libFrame("a"), libFrame("c")])));
  });

  it("prefers the module to the file name, and normalizes file names", () => {
    expect(values(errorEvent("E", "x", [appFrame("f", { module: "billing", filename: "billing.py" })]))).toEqual([
      "E",
      "billing",
      "f",
      "f()",
    ]);
    const js = (filename: string) => errorEvent("E", "x", [{ filename, function: "go", in_app: true }], { platform: "javascript" });
    expect(hash(js("/static/js/main.3f2a1b9c.js"))).toBe(hash(js("/static/js/main.8e7d6c5b.js")));
    expect(values(js("/static/js/main.3f2a1b9c.js?v=2"))).toEqual(["E", "main.<hash>.js", "go"]);
  });

  it("does not use source lines on platforms whose SDKs do not send them reliably", () => {
    const java = (context_line: string) => errorEvent("E", "x", [appFrame("run", { context_line })], { platform: "java" });
    expect(hash(java("a()"))).toBe(hash(java("b()")));
  });

  it("drops source lines longer than 120 characters (minified code)", () => {
    const long = errorEvent("E", "x", [appFrame("f", { context_line: "x".repeat(121) })]);
    expect(values(long)).toEqual(["E", "app.views", "f"]);
  });

  it("leaves out anonymous functions, native/eval frames and direct recursion", () => {
    const js = (frames: Frame[]) => errorEvent("E", "x", frames, { platform: "javascript" });
    const base = { filename: "/app.js", in_app: true, context_line: "go()" };
    expect(values(js([{ ...base, function: "Object.<anonymous>" }]))).toEqual(["E", "app.js", "go()"]);
    expect(
      hash(
        js([
          { ...base, function: "a" },
          { filename: "[native code]", function: "forEach", in_app: true },
          { ...base, function: "b" },
        ]),
      ),
    ).toBe(
      hash(
        js([
          { ...base, function: "a" },
          { ...base, function: "b" },
        ]),
      ),
    );
    const recursive = { ...base, function: "walk", lineno: 3 };
    expect(hash(js([recursive, recursive, recursive]))).toBe(hash(js([recursive])));
  });

  it("keeps the whole chain of a chained exception", () => {
    const chain = (causeType: string) =>
      makeEvent({
        exception: {
          values: [exception(causeType, "inner", [appFrame("inner")]), exception("RuntimeError", "outer", [appFrame("outer")])],
        },
      });
    expect(findComponent(used(computeGrouping(chain("KeyError"))).component!, "chained-exception")).toBeDefined();
    expect(hash(chain("KeyError"))).not.toBe(hash(chain("ValueError")));
  });

  it("ignores an exception group's container", () => {
    const group = (container: string) =>
      makeEvent({
        exception: {
          values: [
            exception("ValueError", "a", [appFrame("a")]),
            exception(container, "group", [appFrame("g")], { mechanism: { type: "chained", is_exception_group: true } }),
          ],
        },
      });
    expect(hash(group("ExceptionGroup"))).toBe(hash(group("TaskGroupError")));
  });

  it("ignores the type of a synthetic exception", () => {
    const synthetic = (type: string) => errorEvent(type, "v", [appFrame("f")], {});
    const a = synthetic("Error");
    a.exception!.values[0]!.mechanism = { type: "generic", synthetic: true };
    const b = synthetic("Object");
    b.exception!.values[0]!.mechanism = { type: "generic", synthetic: true };
    expect(hash(a)).toBe(hash(b));
  });

  it("groups by the crashed thread's stack when there is no exception", () => {
    const threads = (fn: string) =>
      makeEvent({
        threads: {
          values: [
            { id: 1, stacktrace: { frames: [appFrame("idle")] } },
            { id: 2, crashed: true, stacktrace: { frames: [appFrame(fn)] } },
          ],
        },
      });
    expect(values(threads("crash"))).toEqual(["app.views", "crash", "crash()"]);
  });

  it("groups a top-level stack trace ahead of the message", () => {
    const event = messageEvent("User 1 logged in", { stacktrace: { frames: [appFrame("login")] } });
    const result = computeGrouping(event);
    expect(values(event)).toEqual(["app.views", "login", "login()"]);
    expect(findComponent(used(result).component!, "message")).toMatchObject({
      contributes: false,
      hint: "ignored because the stacktrace takes precedence",
    });
  });
});

describe("default grouping: without a stack", () => {
  it("uses the exception type and the value with variable parts stripped", () => {
    const event = errorEvent("OrderError", "Order 123 failed at 2024-03-01T10:00:00Z");
    expect(values(event)).toEqual(["OrderError", "Order <int> failed at <date>"]);
    expect(hash(event)).toBe(hash(errorEvent("OrderError", "Order 456 failed at 2025-01-01T00:00:00Z")));
    expect(used(computeGrouping(event)).id).toBe("default");
  });

  it("tells KeyError and ValueError apart", () => {
    expect(hash(errorEvent("KeyError", "'a'"))).not.toBe(hash(errorEvent("ValueError", "'a'")));
  });

  it("groups 'User 123 not found' with 'User 456 not found'", () => {
    expect(hash(messageEvent("User 123 not found"))).toBe(hash(messageEvent("User 456 not found")));
    expect(hash(messageEvent("User 123 not found"))).not.toBe(hash(messageEvent("Team 123 not found")));
    expect(values(messageEvent("User 123 not found"))).toEqual(["User <int> not found"]);
  });

  it("uses the message template when the message has parameters", () => {
    const logged = (user: string) =>
      makeEvent({
        logentry: { message: "User %s logged in as %s", params: [user, "admin"], formatted: `User ${user} logged in as admin` },
      });
    expect(hash(logged("ada"))).toBe(hash(logged("grace")));
    expect(values(logged("ada"))).toEqual(["User %s logged in as %s"]);
    expect(findComponent(used(computeGrouping(logged("ada"))).component!, "message")!.hint).toBe(
      "the message template, without its parameters",
    );
  });

  it("uses the formatted message when there are no parameters", () => {
    const event = makeEvent({ logentry: { message: "raw %s", formatted: "raw text" } });
    expect(values(event)).toEqual(["raw text"]);
  });

  it("gives events with nothing to group by one shared hash", () => {
    const result = computeGrouping(makeEvent());
    expect(result.hash).toBe(EMPTY_HASH);
    expect(result.variants[0]).toMatchObject({
      id: "default",
      hash: null,
      hint: "nothing to group by: every event like this shares one issue",
    });
  });

  it("rejects an unknown config", () => {
    expect(() => computeGrouping(makeEvent(), { config: "telltale:1999-01-01" })).toThrow(/unknown grouping config/);
  });
});

describe("frame parts remembered across events", () => {
  // A frame's parts are kept for later events by what they are made of (frames.ts): a frame
  // that differs in any of those fields must not get another frame's parts.
  const base: Frame = { filename: "static/app.js", lineno: 10, colno: 5, in_app: true };
  const jsEvent = (frame: Frame) => errorEvent("Error", "x", [frame], { platform: "javascript" });

  it.each<[string, Frame]>([
    ["file name", { ...base, filename: "static/other.js" }],
    ["path when there is no file name", { abs_path: "https://x.test/static/other.js", lineno: 10, colno: 5, in_app: true }],
    ["line", { ...base, lineno: 11 }],
    ["column", { ...base, colno: 6 }],
    ["module", { ...base, module: "shop/cart" }],
    ["function", { ...base, function: "render" }],
    ["source line", { ...base, context_line: "render()" }],
    ["the frame's own platform", { ...base, platform: "python" }],
  ])("gives a frame that differs in its %s its own parts", (_field, other) => {
    const first = values(jsEvent(base));
    const second = values(jsEvent(other));
    expect(second).not.toEqual(first);
    // And the first frame's parts are still its own afterwards.
    expect(values(jsEvent(base))).toEqual(first);
  });
});
