import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { releaseKey, type ReleaseOrder } from "../../src/core/ports/release-order";

export interface ReleaseOrderFixture {
  order: ReleaseOrder;
  /** Two projects of different organizations. */
  projects: [number, number];
  /** Records that an event of `projectId` named `version` at `at` (the first time creates the release). */
  seen(projectId: number, version: string, at: number): Promise<void>;
  cleanup(): Promise<void>;
}

/** What release order (src/core/ports/release-order.ts) reads: first-seen times and a project's versions. */
export function releaseOrderContract(name: string, make: () => Promise<ReleaseOrderFixture>): void {
  describe(`${name}: release order`, () => {
    let f: ReleaseOrderFixture;
    let shop = 0;
    let other = 0;

    beforeAll(async () => {
      f = await make();
      [shop, other] = f.projects;
      await f.seen(shop, "a1b2c3d", 1_000);
      await f.seen(shop, "e4f5a6b", 1_000);
      await f.seen(other, "a1b2c3d", 5_000);
    });
    afterAll(() => f.cleanup());

    it("answers each known release's first-seen time, ordered by id within a millisecond, and leaves the others out", async () => {
      const times = await f.order.firstSeen([
        { projectId: shop, version: "a1b2c3d" },
        { projectId: shop, version: "e4f5a6b" },
        { projectId: other, version: "a1b2c3d" },
        { projectId: other, version: "e4f5a6b" },
        { projectId: shop, version: "never-seen" },
      ]);
      const a = times.get(releaseKey(shop, "a1b2c3d"));
      const e = times.get(releaseKey(shop, "e4f5a6b"));
      expect(a?.at).toBe(1_000);
      expect(e?.at).toBe(1_000);
      expect(e!.id).toBeGreaterThan(a!.id);
      expect(times.get(releaseKey(other, "a1b2c3d"))?.at).toBe(5_000);
      // Another organization's release of that name is not this project's.
      expect(times.has(releaseKey(other, "e4f5a6b"))).toBe(false);
      expect(times.has(releaseKey(shop, "never-seen"))).toBe(false);
      expect(times.size).toBe(3);
    });

    it("finds a release seen after a read that did not know it", async () => {
      const ref = { projectId: other, version: "b0b0b0b" };
      expect((await f.order.firstSeen([ref])).size).toBe(0);
      await f.seen(other, "b0b0b0b", 6_000);
      expect((await f.order.firstSeen([ref])).get(releaseKey(other, "b0b0b0b"))?.at).toBe(6_000);
    });

    it("lists a project's versions newest first, at most `limit`", async () => {
      await f.seen(shop, "f00d001", 2_000);
      expect(await f.order.versions(shop, 2)).toEqual(["f00d001", "e4f5a6b"]);
      expect(await f.order.versions(shop, 10)).toEqual(["f00d001", "e4f5a6b", "a1b2c3d"]);
    });
  });
}
