import { createElement } from "react";
import { renderToStaticMarkup } from "react-dom/server";
import { describe, expect, it } from "vitest";
import { chartMax, OutcomeChart } from "./outcome-chart";

describe("the outcome chart", () => {
  it("has whole-count gridlines", () => {
    for (let n = 0; n < 2000; n++) {
      const max = chartMax(n);
      expect(max).toBeGreaterThanOrEqual(n);
      expect(Number.isInteger(max / 2), `${n} → ${max}`).toBe(true);
    }
    expect(chartMax(5)).toBe(6);
    expect(chartMax(25)).toBe(30);
  });

  it("labels a count axis 0, 3, 6 for five events, not 0, 3, 5, and keeps the line's label clear of its dots", () => {
    const out = renderToStaticMarkup(
      createElement(OutcomeChart, {
        buckets: [1, 2, 3],
        series: [{ name: "sessions", color: "#000", values: [5, 2, 1] }],
        label: (t: number) => `d${t}`,
        line: { name: "crash free", color: "#0a0", values: [1, 1, 1], format: (r: number) => `${Math.round(r * 100)}%` },
      }),
    );
    const ticks = [...out.matchAll(/<text[^>]*text-anchor="end" class="chart-label">(\d+)<\/text>/g)].map((m) => m[1]);
    expect(ticks).toEqual(["0", "3", "6"]);
    const label = /<text x="([\d.]+)"[^>]*data-testid="outcome-chart-line-label"[^>]*>100%<\/text>/.exec(out);
    const dots = [...out.matchAll(/<circle cx="([\d.]+)"/g)].map((m) => Number(m[1]));
    expect(label).not.toBeNull();
    // The label is right-aligned at its x: "100%" is ~30 units wide in the chart's font.
    expect(Number(label![1]) - 30).toBeGreaterThan(Math.max(...dots) + 3);
  });
});
