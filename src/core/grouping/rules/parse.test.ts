import { describe, expect, it } from "vitest";
import { formatRuleError, parseFingerprintRules } from "./parse";
import type { FingerprintRule, RuleError } from "./types";

function parse(text: string): FingerprintRule[] {
  const result = parseFingerprintRules(text);
  if (!result.ok) throw new Error(result.errors.map(formatRuleError).join("\n"));
  return result.rules;
}

function errors(text: string): RuleError[] {
  const result = parseFingerprintRules(text);
  if (result.ok) throw new Error("expected errors");
  return result.errors;
}

describe("parseFingerprintRules: valid rules", () => {
  it("parses the documented examples, skipping comments and blank lines", () => {
    const rules = parse(`
# You can use comments to explain the rules.
error.type:DatabaseUnavailable -> system-down
error.type:ConnectionError -> system-down

error.value:"connection error: *" -> connection-error, {{ transaction }}
stack.function:"my_function" error.type:TimeoutError -> timeout-{{ function }}
message:"*connection refused*" -> conn-refused title="Connection refused"
logger:my.package.* level:error -> error-logger, {{ logger }} title="Error from Logger {{ logger }}"
tags.server_name:"canary-*.mycompany.internal" -> canary-events
stack.abs_path:"**/my-utils/*.js" -> my-utils, {{ error.type }}
family:native !stack.module:"myproject::*" -> not-from-my-project
app:yes stack.function:"assert" -> assert   # trailing comment
stack.function:"query_database" -> {{ default }}, {{ transaction }}
`);
    expect(rules.map((r) => r.line)).toEqual([3, 4, 6, 7, 8, 9, 10, 11, 12, 13, 14]);
    expect(rules[0]).toMatchObject({ text: "error.type:DatabaseUnavailable -> system-down", fingerprint: ["system-down"] });
    expect(rules[2]!.fingerprint).toEqual(["connection-error", "{{ transaction }}"]);
    expect(rules[3]!.matchers.map((m) => [m.key, m.pattern])).toEqual([
      ["stack.function", "my_function"],
      ["error.type", "TimeoutError"],
    ]);
    expect(rules[3]!.fingerprint).toEqual(["timeout-{{ function }}"]);
    expect(rules[4]).toMatchObject({ fingerprint: ["conn-refused"], title: "Connection refused" });
    expect(rules[5]!.title).toBe("Error from Logger {{ logger }}");
    expect(rules[6]!.matchers[0]).toMatchObject({ key: "tags", tag: "server_name" });
    expect(rules[8]!.matchers[1]).toMatchObject({ key: "stack.module", negated: true });
    expect(rules[9]!.fingerprint).toEqual(["assert"]);
    expect(rules[10]!.fingerprint).toEqual(["{{ default }}", "{{ transaction }}"]);
  });

  it("accepts Sentry's short matcher names", () => {
    const [rule] = parse("type:A value:b function:c module:d path:e package:f -> x");
    expect(rule!.matchers.map((m) => m.key)).toEqual([
      "error.type",
      "error.value",
      "stack.function",
      "stack.module",
      "stack.abs_path",
      "stack.package",
    ]);
  });

  it("unescapes quoted fingerprint values and titles but keeps glob escapes", () => {
    const [rule] = parse('message:"say \\"hi\\" \\*" -> "a, b", "c\\"d" title="x \\"y\\""');
    expect(rule!.matchers[0]!.pattern).toBe('say \\"hi\\" \\*');
    expect(rule!.fingerprint).toEqual(["a, b", 'c"d']);
    expect(rule!.title).toBe('x "y"');
  });

  it("handles CRLF line ends and an empty text", () => {
    expect(parse("error.type:A -> a\r\nerror.type:B -> b\r\n")).toHaveLength(2);
    expect(parse("")).toEqual([]);
  });
});

describe("parseFingerprintRules: errors", () => {
  it.each([
    ["error.type:Foo", 1, 15, "expected '->' and a fingerprint after the matchers"],
    ["-> foo", 1, 1, "expected a matcher such as error.type:Value before '->'"],
    ["error.typ:Foo -> x", 1, 1, 'unknown matcher "error.typ"; expected one of'],
    ["error.type -> x", 1, 11, "expected ':' after \"error.type\" (or '->' after the last matcher)"],
    ["error.type: -> x", 1, 12, 'expected a value after "error.type:"'],
    ['message:"unclosed -> x', 1, 9, "unclosed '\"'; expected a closing quote"],
    ["error.type:Foo ->", 1, 18, "expected a fingerprint value after '->'"],
    ["error.type:Foo -> a,", 1, 21, "expected a fingerprint value after ','"],
    ["error.type:Foo -> a b", 1, 21, "expected ',' and another value, or an attribute such as title=\"…\""],
    ['error.type:Foo -> a colour="red"', 1, 21, 'unknown attribute "colour"; expected title'],
    ["error.type:Foo -> {{ nope }}", 1, 19, 'unknown variable "{{ nope }}"'],
    ["error.type:Foo -> x-{{ default }}", 1, 21, "{{ default }} must be a value of its own"],
    ["error.type:Foo -> {{ transaction", 1, 19, "unclosed '{{'; expected '}}'"],
    ["app:maybe -> x", 1, 5, 'expected "yes" or "no" after "app:"'],
    ["family:mobile -> x", 1, 8, 'unknown family "mobile"'],
    ["error.type:Foo[Bar -> x", 1, 15, "unclosed '['"],
    ["tags.:x -> y", 1, 1, "expected a tag name after 'tags.'"],
    ['message:"a"b -> x', 1, 12, "expected a space after the matcher"],
  ])("%j → line %i, column %i: %s", (text, line, column, message) => {
    const [error] = errors(text);
    expect(error).toMatchObject({ line, column });
    expect(error!.message.startsWith(message)).toBe(true);
  });

  it("reports every bad line, and no rules, so the settings page can show them all", () => {
    const result = errors("error.type:A -> ok\nbad line\n# fine\nerror.type:B ->\n");
    expect(result.map((e) => e.line)).toEqual([2, 4]);
    expect(formatRuleError(result[0]!)).toBe("line 2, column 4: expected ':' after \"bad\" (or '->' after the last matcher)");
  });

  it("caps the size of the rules", () => {
    expect(errors("x".repeat(70_000))[0]!.message).toMatch(/longer than/);
    expect(errors(`error.type:A -> ${"a".repeat(3000)}`)[0]!.message).toMatch(/line is longer than/);
    const many = Array.from({ length: 501 }, (_, i) => `error.type:E${i} -> e${i}`).join("\n");
    expect(errors(many)).toEqual([{ line: 501, column: 1, message: "more than 500 rules" }]);
  });
});
