import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { HealthWindow, ReleaseHealthStore } from "../../src/core/ports/release-health";
import type { OrgWorld } from "../support/org-world";

/** A row of session counts or of distinct members (a user per day, an unhealthy session per hour). */
export interface CountSeed {
  hour: number;
  release: string;
  environment: string;
  status: string;
  quantity: number;
}
export interface MemberSeed {
  kind: "user" | "session";
  bucket: number;
  release: string;
  environment: string;
  member: string;
  worst: number;
}

export interface ReleaseHealthStoreFixture {
  store: ReleaseHealthStore;
  world: OrgWorld;
  addCounts(projectId: number, rows: readonly CountSeed[]): Promise<void>;
  addMembers(projectId: number, rows: readonly MemberSeed[]): Promise<void>;
  /** An event of the project (and an issue tagged with its environment). */
  addEvent(projectId: number, release: string, environment: string): Promise<void>;
  /** A deploy of the release (created in the project's organization, linked to the project) to the environment. */
  addDeploy(projectId: number, version: string, environment: string): Promise<void>;
  cleanup(): Promise<void>;
}

const HOUR = 3_600_000;
const DAY = 86_400_000;
const T = Date.UTC(2026, 0, 10);

/** What every ReleaseHealthStore (src/core/ports/release-health.ts) does. */
export function releaseHealthStoreContract(name: string, make: () => Promise<ReleaseHealthStoreFixture>): void {
  describe(name, () => {
    let f: ReleaseHealthStoreFixture;
    beforeAll(async () => {
      f = await make();
      const { projectId, otherProjectId } = f.world;
      const count = (hour: number, release: string, environment: string, status: string, quantity: number) => ({
        hour,
        release,
        environment,
        status,
        quantity,
      });
      await f.addCounts(projectId, [
        count(T, "1.0", "production", "started", 5),
        count(T, "1.0", "staging", "started", 2),
        count(T, "1.0", "production", "crashed", 1),
        count(T + HOUR, "1.0", "production", "started", 3),
        count(T - 2 * HOUR, "1.0", "production", "started", 100),
        count(T, "2.0", "production", "started", 4),
      ]);
      await f.addCounts(otherProjectId, [count(T, "1.0", "production", "started", 50)]);
      const user = (bucket: number, release: string, environment: string, member: string, worst: number) =>
        ({ kind: "user", bucket, release, environment, member, worst }) as const;
      await f.addMembers(projectId, [
        user(T, "1.0", "production", "ann", 0),
        user(T + DAY, "1.0", "production", "ann", 4),
        user(T, "1.0", "staging", "ann", 1),
        user(T, "1.0", "production", "bob", 1),
        user(T - 2 * DAY, "1.0", "production", "old", 4),
        { kind: "session", bucket: T, release: "1.0", environment: "production", member: "s1", worst: 1 },
        { kind: "session", bucket: T, release: "1.0", environment: "production", member: "s2", worst: 1 },
        { kind: "session", bucket: T + HOUR, release: "1.0", environment: "staging", member: "s3", worst: 4 },
      ]);
    });
    afterAll(() => f.cleanup());

    const all: HealthWindow = { environment: null, since: T + 1 };
    const production: HealthWindow = { environment: "production", since: T };
    const sorted = <R>(rows: R[]) => rows.map((r) => JSON.stringify(r)).sort();

    it("sums session counts per release, hour and status from the window's first hour", async () => {
      const { projectId } = f.world;
      expect(sorted(await f.store.sessionCounts(projectId, ["1.0"], all))).toEqual(
        sorted([
          { release: "1.0", hour: T, status: "started", quantity: 7 },
          { release: "1.0", hour: T, status: "crashed", quantity: 1 },
          { release: "1.0", hour: T + HOUR, status: "started", quantity: 3 },
        ]),
      );
      expect(await f.store.sessionCounts(projectId, ["2.0"], { environment: "staging", since: T })).toEqual([]);
      expect(await f.store.sessionCounts(projectId, [], all)).toEqual([]);
      expect(await f.store.startedByRelease(projectId, production)).toEqual(
        new Map([
          ["1.0", 8],
          ["2.0", 4],
        ]),
      );
    });

    it("counts each user once by their worst status, and errored sessions per started hour", async () => {
      const { projectId } = f.world;
      expect(sorted(await f.store.usersByWorst(projectId, ["1.0"], { environment: null, since: T + HOUR }))).toEqual(
        sorted([
          { release: "1.0", worst: 4, n: 1 },
          { release: "1.0", worst: 1, n: 1 },
        ]),
      );
      expect(sorted(await f.store.usersByWorst(projectId, ["1.0"], { environment: "staging", since: T }))).toEqual(
        sorted([{ release: "1.0", worst: 1, n: 1 }]),
      );
      expect(await f.store.usersByWorst(projectId, [], all)).toEqual([]);
      expect(sorted(await f.store.erroredSessions(projectId, ["1.0", "2.0"], { environment: null, since: T }))).toEqual(
        sorted([
          { release: "1.0", hour: T, worst: 1, n: 2 },
          { release: "1.0", hour: T + HOUR, worst: 4, n: 1 },
        ]),
      );
      expect(await f.store.erroredSessions(projectId, ["1.0"], { environment: null, since: T + 2 * HOUR })).toEqual([]);
    });

    it("names the environments and, per environment, the releases that sessions, events and deploys name", async () => {
      const { projectId, otherProjectId } = f.world;
      await f.addEvent(projectId, "3.0", "qa");
      await f.addDeploy(projectId, "4.0", "canary");
      await f.addDeploy(otherProjectId, "5.0", "elsewhere");
      expect(await f.store.environments(projectId)).toEqual(["canary", "production", "qa", "staging"]);
      expect(await f.store.versionsIn(projectId, "production")).toEqual(new Set(["1.0", "2.0"]));
      expect(await f.store.versionsIn(projectId, "qa")).toEqual(new Set(["3.0"]));
      expect(await f.store.versionsIn(projectId, "canary")).toEqual(new Set(["4.0"]));
      expect(await f.store.versionsIn(projectId, "elsewhere")).toEqual(new Set());
    });
  });
}
