import { describe, expect, it } from "vitest";
import { HEALTH_RANK } from "../digest/records";
import { bucketSize, computeHealth, formatRate } from "./health-math";

const HOUR = 3_600_000;
const DAY = 24 * HOUR;
const NOW = Date.UTC(2026, 10, 25, 17, 30);
const since = NOW - DAY;
const h = (ago: number) => Math.floor(NOW / HOUR) * HOUR - ago * HOUR;

describe("release health math", () => {
  it("formats rates with one decimal, rounding crash-free rates down so 100 % means none crashed", () => {
    expect(formatRate(0.99249)).toBe("99.2 %");
    expect(formatRate(0.9999)).toBe("99.9 %");
    expect(formatRate(1)).toBe("100 %");
    expect(formatRate(2 / 3)).toBe("66.6 %");
    expect(formatRate(2 / 3, "nearest")).toBe("66.7 %");
    expect(formatRate(0)).toBe("0 %");
    expect(formatRate(null)).toBe("—");
  });

  it("charts per hour up to two days and per day beyond", () => {
    expect(bucketSize(NOW - DAY, NOW)).toBe(HOUR);
    expect(bucketSize(NOW - 14 * DAY, NOW)).toBe(DAY);
  });

  it("computes crash-free sessions and users, errored sessions and adoption from stored counts", () => {
    const health = computeHealth({
      counts: [
        { release: "r", hour: h(2), status: "started", quantity: 6 },
        { release: "r", hour: h(1), status: "started", quantity: 4 },
        { release: "r", hour: h(1), status: "crashed", quantity: 1 },
        { release: "r", hour: h(1), status: "unhandled", quantity: 1 },
        { release: "r", hour: h(2), status: "errored", quantity: 2 },
        { release: "r", hour: h(2), status: "exited", quantity: 5 },
        { release: "r", hour: Math.floor(NOW / DAY) * DAY, status: "untracked_user", quantity: 3 },
      ],
      // Kept by session id: one errored, one that later crashed (counted by its status, not again here).
      erroredSessions: [
        { release: "r", hour: h(1), worst: HEALTH_RANK.errored, n: 1 },
        { release: "r", hour: h(1), worst: HEALTH_RANK.crashed, n: 1 },
      ],
      users: [
        { release: "r", worst: HEALTH_RANK.ok, n: 5 },
        { release: "r", worst: HEALTH_RANK.unhandled, n: 2 },
        { release: "r", worst: HEALTH_RANK.crashed, n: 1 },
      ],
      startedLastDay: 10,
      projectStartedLastDay: 40,
      since,
      now: NOW,
    });
    expect(health).toMatchObject({
      sessions: 10,
      crashed: 1,
      unhandled: 1,
      errored: 3,
      crashFreeSessions: 0.9,
      users: 8,
      crashedUsers: 1,
      crashFreeUsers: 7 / 8,
      untrackedUsers: 3,
      adoption: 0.25,
    });
    expect(health.series).toHaveLength(25);
    const last = health.series.filter((p) => p.sessions > 0);
    expect(last.map((p) => [p.start, p.sessions, p.healthy, p.errored, p.unhandled, p.crashed, p.crashFree])).toEqual([
      [h(2), 6, 4, 2, 0, 0, 1],
      [h(1), 4, 1, 1, 1, 1, 0.75],
    ]);
  });

  it("has no rates and no adoption without sessions", () => {
    const health = computeHealth({
      counts: [],
      erroredSessions: [],
      users: [],
      startedLastDay: 0,
      projectStartedLastDay: 0,
      since,
      now: NOW,
    });
    expect([health.crashFreeSessions, health.crashFreeUsers, health.adoption]).toEqual([null, null, null]);
    expect(health.series.every((p) => p.crashFree === null)).toBe(true);
  });
});
