import { createElement } from "react";
import { renderToStaticMarkup } from "react-dom/server";
import { describe, expect, it } from "vitest";
import { When } from "../when";
import { Breadcrumbs } from "./breadcrumbs";

const crumbs = (timestamp: number) =>
  renderToStaticMarkup(
    createElement(Breadcrumbs, {
      crumbs: [{ type: "default", level: "info", message: "m", timestamp }],
      level: null,
      category: null,
      href: () => "/x",
    }),
  );

describe("times a page shows from stored events", () => {
  it("shows a breadcrumb's time of day", () => {
    expect(crumbs(1795331379.614)).toContain("<td>07:09:39.614</td>");
  });

  it("shows a stored breadcrumb time no Date holds as its number instead of failing the page", () => {
    expect(crumbs(8.65e12)).toContain("<td>8650000000000</td>");
    expect(crumbs(1e308)).toContain("<td>1e+308</td>");
  });

  it("shows an event time no Date holds as its number", () => {
    const out = renderToStaticMarkup(createElement(When, { ms: 8.65e15 }));
    expect(out).toContain("8650000000000000");
  });
});
