import { describe, expect, it } from "vitest";
import { RateLimiter } from "./limiter";
import { formatRateLimits, parseQuotaList, retryAfterOf, type Quota } from "./quota";

const errors: Quota = { id: "p:1:error", scope: "project", categories: ["error"], limit: 3, windowSeconds: 60, reason: "project_quota" };

describe("RateLimiter", () => {
  it("admits items up to the limit within a window, then refuses with the time left", () => {
    let now = 60_000 * 10 + 15_000; // 15 s into a minute window
    const limiter = new RateLimiter(() => now);
    expect([1, 2, 3].map(() => limiter.consume([errors], "error", 1))).toEqual([[], [], []]);
    const refused = limiter.consume([errors], "error", 1);
    expect(refused).toEqual([{ retryAfterSeconds: 45, categories: ["error"], scope: "project", reason: "project_quota" }]);
    now += 45_000; // next window
    expect(limiter.consume([errors], "error", 1)).toEqual([]);
  });

  it("does not count other categories against a category quota", () => {
    const limiter = new RateLimiter(() => 0);
    for (let i = 0; i < 10; i++) expect(limiter.consume([errors], "transaction", 1)).toEqual([]);
    expect(limiter.consume([errors], "error", 3)).toEqual([]);
  });

  it("consumes nothing when any applicable quota refuses", () => {
    const all: Quota = { id: "k:1", scope: "key", categories: null, limit: 5, windowSeconds: 60, reason: "key_quota" };
    const limiter = new RateLimiter(() => 0);
    expect(limiter.consume([errors, all], "error", 3)).toEqual([]);
    expect(limiter.consume([errors, all], "error", 1)).toHaveLength(1); // errors full, key quota untouched
    expect(limiter.consume([all], "transaction", 2)).toEqual([]); // 3 + 2 = 5: still fits
    expect(limiter.consume([all], "transaction", 1)).toHaveLength(1);
  });

  it("refuses everything for a zero limit", () => {
    const zero = { ...errors, limit: 0 };
    expect(new RateLimiter(() => 0).consume([zero], "error", 1)).toHaveLength(1);
  });

  it("reports exhausted quotas as active without consuming", () => {
    const limiter = new RateLimiter(() => 0);
    limiter.consume([errors], "error", 3);
    expect(limiter.active([errors], "error")).toHaveLength(1);
    expect(limiter.active([errors], "transaction")).toEqual([]);
  });
});

describe("X-Sentry-Rate-Limits", () => {
  it("formats limits as retry:categories:scope:reason joined by comma and space", () => {
    expect(
      formatRateLimits([
        { retryAfterSeconds: 59.2, categories: ["error", "default"], scope: "project", reason: "project_quota" },
        { retryAfterSeconds: 10, categories: null, scope: "key", reason: "key_quota" },
      ]),
    ).toBe("60:error;default:project:project_quota, 10::key:key_quota");
  });

  it("gives the longest retry as Retry-After", () => {
    expect(
      retryAfterOf([
        { retryAfterSeconds: 3.1, categories: null, scope: "key", reason: "" },
        { retryAfterSeconds: 40, categories: null, scope: "key", reason: "" },
      ]),
    ).toBe(40);
  });
});

describe("parseQuotaList", () => {
  it("reads category:count/seconds pairs, with * for every category", () => {
    expect(parseQuotaList("error:100/60, *:1000/3600", "organization", "global")).toEqual([
      { id: "global:error", scope: "organization", categories: ["error"], limit: 100, windowSeconds: 60, reason: "organization_quota" },
      { id: "global:*", scope: "organization", categories: null, limit: 1000, windowSeconds: 3600, reason: "organization_quota" },
    ]);
  });

  it("rejects malformed entries with a message naming them", () => {
    expect(() => parseQuotaList("error=100", "organization", "g")).toThrow(/invalid quota 'error=100'/);
  });
});
