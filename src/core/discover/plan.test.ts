import { describe, expect, it } from "vitest";
import { planOf, type DiscoverInput } from "./plan";

const input = (over: Partial<DiscoverInput>): DiscoverInput => ({
  dataset: null,
  fields: ["title", "count()"],
  query: "",
  sort: null,
  projectIds: [1],
  start: 0,
  end: 3600,
  limit: 50,
  offset: 0,
  ...over,
});

describe("Discover's plan", () => {
  it("splits plain fields from functions, keyed by the field strings", () => {
    const plan = planOf(input({ fields: ["title", "count()", "count_unique(release)", "last_seen()"], sort: "-count()" }));
    expect(plan.columns).toEqual([{ key: "title", column: "title" }]);
    expect(plan.aggregates).toEqual([
      { key: "count()", fn: "count" },
      { key: "count_unique(release)", fn: "count_unique", column: "release" },
      { key: "last_seen()", fn: "last_seen" },
    ]);
    expect(plan.orderBy).toEqual([{ key: "count()", descending: true }]);
  });

  it("refuses what the errors dataset cannot answer", () => {
    expect(() => planOf(input({ dataset: "spans" }))).toThrow(/dataset/);
    expect(() => planOf(input({ fields: ["avg(duration)"] }))).toThrow(/unknown function/);
    expect(() => planOf(input({ sort: "release" }))).toThrow(/sort/);
    expect(() => planOf(input({ query: "is:unresolved" }))).toThrow(/cannot search by is/);
    expect(planOf(input({ dataset: "errors", query: "level:error release:1.*" })).terms).toHaveLength(2);
  });
});
