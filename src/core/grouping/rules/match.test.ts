import { describe, expect, it } from "vitest";
import { appFrame, errorEvent, exception, libFrame, makeEvent, messageEvent } from "../test-events";
import type { NormalizedEvent } from "../../normalize/types";
import { matchFingerprintRules } from "./match";
import { parseFingerprintRules } from "./parse";

/** The line of the first rule (of the given text) that matches, or null. */
function matchedLine(rules: string, event: NormalizedEvent): number | null {
  const parsed = parseFingerprintRules(rules);
  if (!parsed.ok) throw new Error(parsed.errors[0]!.message);
  return matchFingerprintRules(parsed.rules, event)?.line ?? null;
}

describe("matchFingerprintRules", () => {
  const timeout = errorEvent("TimeoutError", "Timed out after 30s", [appFrame("handler"), libFrame("my_function", { in_app: true })], {
    logger: "app.db",
    tags: [["server_name", "canary-3.mycompany.internal"]],
    transaction: "/api/users",
  });

  it("applies the first rule that matches", () => {
    expect(matchedLine("error.type:Nope -> a\nerror.type:TimeoutError -> b\nerror.type:Timeout* -> c", timeout)).toBe(2);
    expect(matchedLine("error.type:Nope -> a", timeout)).toBeNull();
  });

  it("matches error.type case-sensitively and error.value case-insensitively", () => {
    expect(matchedLine("error.type:timeouterror -> a", timeout)).toBeNull();
    expect(matchedLine('error.value:"timed OUT after *" -> a', timeout)).toBe(1);
  });

  it("checks every exception of a chain, with both exception matchers on the same one", () => {
    const chained = makeEvent({ exception: { values: [exception("KeyError", "'gold'"), exception("RuntimeError", "charge failed")] } });
    expect(matchedLine("error.type:KeyError -> a", chained)).toBe(1);
    expect(matchedLine('error.type:KeyError error.value:"charge*" -> a', chained)).toBeNull();
    expect(matchedLine('error.type:RuntimeError error.value:"charge*" -> a', chained)).toBe(1);
  });

  it("lets message match the log message and exception values, case-insensitively", () => {
    expect(matchedLine('message:"*CONNECTION refused*" -> a', messageEvent("db: connection refused by 10.0.0.1"))).toBe(1);
    expect(matchedLine('message:"timed out*" -> a', timeout)).toBe(1);
  });

  it("matches logger (case-sensitive), level (case-insensitive) and tags", () => {
    expect(matchedLine("logger:app.* level:ERROR -> a", timeout)).toBe(1);
    expect(matchedLine("logger:App.* -> a", timeout)).toBeNull();
    expect(matchedLine('tags.server_name:"canary-*.mycompany.internal" -> a', timeout)).toBe(1);
    expect(matchedLine("tags.transaction:/api/* -> a", timeout)).toBe(1);
    expect(matchedLine("tags.region:* -> a", timeout)).toBeNull();
  });

  it("needs frame matchers to hold on one frame", () => {
    expect(matchedLine("stack.function:my_function stack.module:lib.core -> a", timeout)).toBe(1);
    expect(matchedLine("stack.function:handler stack.module:lib.core -> a", timeout)).toBeNull();
    expect(matchedLine("app:yes stack.function:handler -> a", timeout)).toBe(1);
    expect(matchedLine("app:no stack.function:handler -> a", timeout)).toBeNull();
  });

  it("matches stack.abs_path on abs_path or filename with path globbing, relative paths too", () => {
    const js = errorEvent("TypeError", "x", [{ filename: "src/my-utils/format.js", function: "f", in_app: true }], {
      platform: "javascript",
    });
    expect(matchedLine('stack.abs_path:"**/my-utils/*.js" -> a', js)).toBe(1);
    expect(matchedLine('stack.abs_path:"**/MY-UTILS/*.JS" -> a', js)).toBe(1);
    expect(matchedLine('stack.abs_path:"**/src/*.js" -> a', js)).toBeNull();
    const url = errorEvent("TypeError", "x", [{ abs_path: "https://cdn.example.com/js/app.js", filename: "/js/app.js", in_app: true }]);
    expect(matchedLine("path:**/js/app.js -> a", url)).toBe(1);
  });

  it("negates one matcher with !", () => {
    expect(matchedLine("!error.type:TimeoutError -> a", timeout)).toBeNull();
    expect(matchedLine("!error.type:KeyError -> a", timeout)).toBe(1);
    expect(matchedLine("!error.type:KeyError -> a", messageEvent("no exception at all"))).toBe(1);
    expect(matchedLine("!stack.module:lib.* -> a", timeout)).toBe(1);
  });

  it("scopes by family and sdk", () => {
    expect(matchedLine("family:javascript,native -> a", timeout)).toBeNull();
    expect(matchedLine("family:other -> a", timeout)).toBe(1);
    const node = makeEvent({ platform: "node", sdk: { name: "sentry.javascript.node" } });
    expect(matchedLine("family:javascript sdk:sentry.javascript.* -> a", node)).toBe(1);
  });
});
