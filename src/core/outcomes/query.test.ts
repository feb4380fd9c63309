import { describe, expect, it } from "vitest";
import type { FilteredCount, OutcomeStore } from "../ports/outcomes";
import { filteredErrors } from "./query";

/** The sums themselves are the store's (test/contracts/outcomes.ts); core orders them. */
function storeAnswering(rows: FilteredCount[]): { outcomes: OutcomeStore; asked: number } {
  const ctx = {
    asked: 0,
    outcomes: {
      record: () => Promise.resolve(),
      ofProject: () => Promise.resolve([]),
      ofProjects: () => Promise.resolve([]),
      filteredErrors: () => {
        ctx.asked++;
        return Promise.resolve(rows.map((r) => ({ ...r })));
      },
    },
  };
  return ctx;
}

describe("filteredErrors", () => {
  it("orders the sums largest first, then by project and reason", async () => {
    const ctx = storeAnswering([
      { projectId: 2, reason: "release-version", quantity: 1 },
      { projectId: 1, reason: "localhost", quantity: 3 },
      { projectId: 1, reason: "web-crawlers", quantity: 5 },
      { projectId: 1, reason: "browser-extensions", quantity: 1 },
    ]);
    expect(await filteredErrors(ctx, [1, 2], 0)).toEqual([
      { projectId: 1, reason: "web-crawlers", quantity: 5 },
      { projectId: 1, reason: "localhost", quantity: 3 },
      { projectId: 1, reason: "browser-extensions", quantity: 1 },
      { projectId: 2, reason: "release-version", quantity: 1 },
    ]);
  });

  it("answers an empty list for no projects without asking the store", async () => {
    const ctx = storeAnswering([{ projectId: 1, reason: "localhost", quantity: 1 }]);
    expect(await filteredErrors(ctx, [], 0)).toEqual([]);
    expect(ctx.asked).toBe(0);
  });
});
