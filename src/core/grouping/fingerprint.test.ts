import { describe, expect, it } from "vitest";
import { computeGrouping } from "./compute";
import { hashValues } from "./component";
import { isDefaultValue, resolveValue } from "./fingerprint";
import { parseFingerprintRules } from "./rules/parse";
import type { FingerprintRule } from "./rules/types";
import { appFrame, errorEvent, messageEvent } from "./test-events";
import type { NormalizedEvent } from "../normalize/types";

const boom = (fields: Partial<NormalizedEvent> = {}) => errorEvent("TimeoutError", "Timed out", [appFrame("fetch_rows")], fields);

function rules(text: string): FingerprintRule[] {
  const parsed = parseFingerprintRules(text);
  if (!parsed.ok) throw new Error(parsed.errors[0]!.message);
  return parsed.rules;
}

describe("SDK fingerprint", () => {
  it('treats ["{{ default }}"] (any spacing) as the default grouping', () => {
    const plain = computeGrouping(boom());
    for (const fp of ["{{ default }}", "{{default}}", "{{  default  }}"]) {
      const result = computeGrouping(boom({ fingerprint: [fp] }));
      expect(result.hash).toBe(plain.hash);
      expect(result.fingerprint).toMatchObject({ source: "sdk", raw: [fp] });
      expect(result.variants).toEqual(plain.variants);
    }
  });

  it("hashes custom values alone, whatever the event", () => {
    const a = computeGrouping(boom({ fingerprint: ["my-key"] }));
    const b = computeGrouping(messageEvent("something else entirely", { fingerprint: ["my-key"] }));
    expect(a.hash).toBe(hashValues(["my-key"]));
    expect(b.hash).toBe(a.hash);
    expect(a.hashes).toEqual([a.hash]);
    expect(a.variants[0]).toMatchObject({ id: "fingerprint", contributes: true, values: ["my-key"] });
    expect(a.variants.slice(1).every((v) => !v.contributes && v.hint === "ignored because a custom fingerprint takes precedence")).toBe(
      true,
    );
  });

  it("combines {{ default }} with custom values: splits the default group, keeps it together per value", () => {
    const plain = computeGrouping(boom());
    const acme = computeGrouping(boom({ fingerprint: ["{{ default }}", "tenant-acme"] }));
    const acme2 = computeGrouping(boom({ fingerprint: ["{{ default }}", "tenant-acme"], timestamp: 1_800_000_000 }));
    const globex = computeGrouping(boom({ fingerprint: ["{{ default }}", "tenant-globex"] }));
    expect(acme.hash).not.toBe(plain.hash);
    expect(acme.hash).toBe(acme2.hash);
    expect(globex.hash).not.toBe(acme.hash);
    expect(acme.hash).toBe(hashValues([plain.hash, "tenant-acme"]));
    expect(acme.variants[0]!.hint).toBe("{{ default }} stands for the app variant's hash");
    expect(acme.variants.find((v) => v.id === "app")!.contributes).toBe(true);
  });

  it("substitutes variables in SDK fingerprints", () => {
    const a = computeGrouping(boom({ fingerprint: ["db", "{{ transaction }}"], transaction: "/api/a" }));
    const b = computeGrouping(boom({ fingerprint: ["db", "{{ transaction }}"], transaction: "/api/b" }));
    expect(a.hash).not.toBe(b.hash);
    expect(a.fingerprint!.resolved).toEqual(["db", "/api/a"]);
  });
});

describe("fingerprint variables", () => {
  const event = errorEvent(
    "KeyError",
    "'gold'",
    [
      appFrame("outer"),
      appFrame("price_for", { module: "billing", abs_path: "/srv/app/billing.py", filename: "billing.py", package: "app.so" }),
      { function: "lib", in_app: false },
    ],
    {
      transaction: "/checkout",
      logger: "app.billing",
      level: "warning",
      tags: [["region", "eu"]],
      logentry: { formatted: "charging failed" },
    },
  );

  it.each([
    ["{{ transaction }}", "/checkout"],
    ["{{ error.type }}", "KeyError"],
    ["{{ type }}", "KeyError"],
    ["{{ error.value }}", "'gold'"],
    ["{{ value }}", "'gold'"],
    ["{{ function }}", "price_for"],
    ["{{ stack.function }}", "price_for"],
    ["{{ module }}", "billing"],
    ["{{ stack.abs_path }}", "/srv/app/billing.py"],
    ["{{ stack.filename }}", "billing.py"],
    ["{{ package }}", "app.so"],
    ["{{ logger }}", "app.billing"],
    ["{{ level }}", "warning"],
    ["{{ message }}", "charging failed"],
    ["{{ tags.region }}", "eu"],
    ["{{ tags.level }}", "warning"],
    ["timeout-{{ function }}-{{ level }}", "timeout-price_for-warning"],
    ["{{ unknown.thing }}", "{{ unknown.thing }}"],
  ])("%s → %s", (value, expected) => {
    expect(resolveValue(value, event)).toBe(expected);
  });

  it("fills missing values with <no-…> markers", () => {
    const bare = messageEvent("hi");
    expect(
      ["{{ transaction }}", "{{ type }}", "{{ value }}", "{{ function }}", "{{ module }}", "{{ logger }}", "{{ tags.region }}"].map((v) =>
        resolveValue(v, bare),
      ),
    ).toEqual(["<no-transaction>", "<no-type>", "<no-value>", "<no-function>", "<no-module>", "<no-logger>", "<no-value-for-tag-region>"]);
  });

  it("recognizes {{ default }} only as a whole value", () => {
    expect(isDefaultValue(" {{ default }} ")).toBe(true);
    expect(isDefaultValue("x-{{ default }}")).toBe(false);
    expect(isDefaultValue("{{ default }}{{ default }}")).toBe(false);
  });
});

describe("fingerprint rules in computeGrouping", () => {
  const projectRules = rules(`
error.type:DatabaseUnavailable -> system-down
stack.function:"fetch_rows" error.type:TimeoutError -> timeout-{{ function }} title="Timeout in {{ function }}"
message:"*connection refused*" -> conn-refused, {{ default }}
`);

  it("groups by the first matching rule and sets the title", () => {
    const result = computeGrouping(boom({ fingerprint: ["sdk-said-so"] }), { rules: projectRules });
    expect(result.hash).toBe(hashValues(["timeout-fetch_rows"]));
    expect(result.title).toBe("Timeout in fetch_rows");
    expect(result.fingerprint).toMatchObject({
      source: "rule",
      rule: {
        line: 3,
        text: 'stack.function:"fetch_rows" error.type:TimeoutError -> timeout-{{ function }} title="Timeout in {{ function }}"',
      },
      replacedSdkFingerprint: ["sdk-said-so"],
    });
    expect(result.variants[0]!.description).toBe("fingerprint rule on line 3");
  });

  it("merges events of one type whatever their stacks", () => {
    const a = computeGrouping(errorEvent("DatabaseUnavailable", "db 1 down", [appFrame("a")]), { rules: projectRules });
    const b = computeGrouping(errorEvent("DatabaseUnavailable", "other text", [appFrame("b")]), { rules: projectRules });
    expect(a.hash).toBe(b.hash);
  });

  it("keeps the default grouping inside a rule that uses {{ default }}", () => {
    const a = computeGrouping(messageEvent("db: connection refused"), { rules: projectRules });
    const b = computeGrouping(messageEvent("cache: connection refused"), { rules: projectRules });
    expect(a.hash).not.toBe(b.hash);
    expect(a.hash).toBe(hashValues(["conn-refused", computeGrouping(messageEvent("db: connection refused")).hash]));
  });

  it("leaves unmatched events to the default grouping", () => {
    const event = errorEvent("ValueError", "bad", [appFrame("parse")]);
    expect(computeGrouping(event, { rules: projectRules }).hash).toBe(computeGrouping(event).hash);
  });
});
