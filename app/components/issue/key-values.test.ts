import { createElement } from "react";
import { renderToStaticMarkup } from "react-dom/server";
import { describe, expect, it } from "vitest";
import { mergedNames } from "./activity";
import { Contexts, shownContexts } from "./contexts";
import { KeyValues } from "./key-values";
import { TagBars } from "./tag-bars";

const html = (rows: [string, unknown][]) => renderToStaticMarkup(createElement(KeyValues, { rows, testId: "t" }));

describe("key/value tables", () => {
  it("nests objects as tables three levels deep, then shows JSON text", () => {
    const out = html([["a", { b: { c: { d: { e: 1 } } } }]]);
    expect(out).toContain('data-testid="t-a"');
    expect(out).toContain('data-testid="t-a-b"');
    expect(out).toContain('data-testid="t-a-b-c"');
    expect(out).not.toContain('data-testid="t-a-b-c-d"');
    expect(out).toContain("{\n  &quot;e&quot;: 1\n}");
  });

  it("reads a list of plain values as text and leaves empty values out", () => {
    const out = html([
      ["methods", ["card", 2, true]],
      ["empty", {}],
      ["none", []],
      ["mixed", [{ a: 1 }]],
    ]);
    expect(out).toContain("<td>card, 2, true</td>");
    expect(out).not.toContain("empty");
    expect(out).not.toContain("none");
    expect(out).toContain("&quot;a&quot;: 1");
  });

  it("renders event data as text even when it looks like markup or an element", () => {
    const out = html([
      ["<b>key</b>", "<img src=x onerror=alert(1)>"],
      ["fake", { $$typeof: "react.element", type: "script", props: {} }],
    ]);
    expect(out).not.toContain("<img");
    expect(out).not.toContain("<script");
    expect(out).toContain("&lt;b&gt;key&lt;/b&gt;");
  });
});

describe("issue page panels", () => {
  it("leaves out a context with nothing in it", () => {
    const contexts = { os: { name: "Linux" }, cloud_resource: {}, device: { type: "device" }, empty: { a: "", b: null } };
    expect(shownContexts(contexts).map(([name]) => name)).toEqual(["os"]);
    const out = renderToStaticMarkup(createElement(Contexts, { contexts }));
    expect(out).toContain("Linux");
    expect(out).not.toContain("cloud_resource");
    expect(out).not.toContain("Nothing recorded");
  });

  it("names merged issues by short id, and counts them in the right number", () => {
    expect(mergedNames({ merged: [2], mergedShortIds: ["API-2"] })).toBe("API-2");
    expect(mergedNames({ merged: [2, 3, 4], mergedShortIds: ["API-2", "API-3", "API-4"] })).toBe("API-2, API-3 and API-4");
    expect(mergedNames({ merged: [2] })).toBe("1 issue");
    expect(mergedNames({ merged: [2, 3] })).toBe("2 issues");
  });

  it("shows tag shares that add up to 100 %", () => {
    const tags = [
      {
        key: "environment",
        total: 6,
        top: [
          { value: "production", count: 4 },
          { value: "staging", count: 1 },
          { value: "dev", count: 1 },
        ],
      },
    ];
    const out = renderToStaticMarkup(createElement(TagBars, { tags, searchHref: () => "#" }));
    const shares = [...out.matchAll(/>(\d+)%</g)].map((m) => Number(m[1]));
    expect(shares).toEqual([66, 17, 17]);
  });
});
