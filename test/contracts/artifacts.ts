import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { ArtifactStore, NewArtifactBundle } from "../../src/core/ports/artifacts";
import type { OrgWorld } from "../support/org-world";

export interface ArtifactStoreFixture {
  store: ArtifactStore;
  world: OrgWorld;
  cleanup(): Promise<void>;
}

const DEBUG_ID = "0b1f2c3d-0000-4000-8000-00000000000a";
const bytes = (text: string) => Buffer.from(text, "utf8");

/** What every ArtifactStore (src/core/ports/artifacts.ts) does. */
export function artifactStoreContract(name: string, make: () => Promise<ArtifactStoreFixture>): void {
  describe(name, () => {
    let f: ArtifactStoreFixture;
    beforeAll(async () => {
      f = await make();
    });
    afterAll(() => f.cleanup());

    const bundle = (checksum: string, over: Partial<NewArtifactBundle> = {}): NewArtifactBundle => ({
      organizationId: f.world.orgId,
      bundleId: DEBUG_ID,
      checksum,
      release: "1.0",
      dist: null,
      size: 100,
      projectIds: [f.world.projectId],
      files: [
        { url: "~/app.min.js", type: "minified_source", debugId: DEBUG_ID, sourcemap: "app.min.js.map", data: bytes(`code ${checksum}`) },
        { url: "~/app.min.js.map", type: "source_map", debugId: DEBUG_ID, sourcemap: null, data: bytes(`map ${checksum}`) },
      ],
      ...over,
    });

    it("keeps an organization's chunks by checksum until deleted or expired", async () => {
      const { orgId, otherOrgId } = f.world;
      await f.store.putChunks(
        orgId,
        [
          { checksum: "c1", data: bytes("one") },
          { checksum: "c2", data: bytes("two!") },
        ],
        1_000,
      );
      await f.store.putChunks(orgId, [{ checksum: "c1", data: bytes("changed") }], 5_000);
      expect(await f.store.missingChunks(orgId, ["c3", "c1", "c2", "c0"])).toEqual(["c3", "c0"]);
      expect(await f.store.missingChunks(otherOrgId, ["c1"])).toEqual(["c1"]);
      expect(await f.store.missingChunks(orgId, [])).toEqual([]);
      expect((await f.store.readChunks(orgId, ["c2", "c1"]))?.map(String)).toEqual(["two!", "one"]);
      expect(await f.store.readChunks(orgId, ["c1", "c3"])).toBeNull();
      expect(await f.store.readChunks(otherOrgId, ["c1"])).toBeNull();

      await f.store.putChunks(orgId, [{ checksum: "c4", data: bytes("fresh") }], 9_000);
      await f.store.putChunks(otherOrgId, [{ checksum: "c1", data: bytes("theirs") }], 0);
      expect(await f.store.expireChunks(orgId, 2_000)).toBe(5);
      expect(await f.store.missingChunks(orgId, ["c1", "c2", "c4"])).toEqual(["c1", "c2"]);
      expect(await f.store.missingChunks(otherOrgId, ["c1"])).toEqual([]);
      await f.store.deleteChunks(orgId, ["c4", "c9"]);
      expect(await f.store.expireChunks(orgId, 0)).toBe(0);
      expect(await f.store.expireChunks(otherOrgId, 0)).toBe(6);
    });

    it("records an assembly's state per organization and checksum", async () => {
      const { orgId, otherOrgId } = f.world;
      expect(await f.store.assembly(orgId, "a1")).toBeNull();
      await f.store.setAssembly(orgId, "a1", { state: "assembling", detail: null }, 1_000);
      await f.store.setAssembly(orgId, "a1", { state: "error", detail: "bad zip" }, 2_000);
      expect(await f.store.assembly(orgId, "a1")).toEqual({ state: "error", detail: "bad zip" });
      expect(await f.store.assembly(otherOrgId, "a1")).toBeNull();
    });

    it("saves a bundle with its files, links it to more projects, and drops it", async () => {
      const { orgId, projectId, otherProjectId } = f.world;
      const saved = await f.store.saveBundle(bundle("b1"), 3_000);
      expect(saved).toEqual({
        id: expect.any(Number),
        organizationId: orgId,
        bundleId: DEBUG_ID,
        checksum: "b1",
        release: "1.0",
        dist: null,
        fileCount: 2,
        size: 100,
        createdAt: 3_000,
        projectIds: [projectId],
      });
      const files = await f.store.files(saved.id);
      expect(files).toEqual([
        {
          id: expect.any(Number),
          bundleId: saved.id,
          url: "~/app.min.js",
          type: "minified_source",
          debugId: DEBUG_ID,
          sourcemap: "app.min.js.map",
          size: 7,
        },
        {
          id: expect.any(Number),
          bundleId: saved.id,
          url: "~/app.min.js.map",
          type: "source_map",
          debugId: DEBUG_ID,
          sourcemap: null,
          size: 6,
        },
      ]);
      expect(String(await f.store.content(files[0]?.id ?? 0))).toBe("code b1");

      const before = await f.store.bundleGenerations([projectId, otherProjectId]);
      expect([...before.keys()]).toEqual([projectId]);
      await f.store.linkProjects(orgId, "b1", [otherProjectId, projectId]);
      await f.store.linkProjects(orgId, "unknown", [otherProjectId]);
      await f.store.linkProjects(f.world.otherOrgId, "b1", [f.world.otherOrgProjectId]);
      expect((await f.store.bundles(orgId)).map((b) => [b.checksum, [...b.projectIds].sort((a, b) => a - b)])).toEqual([
        ["b1", [projectId, otherProjectId].sort((a, b) => a - b)],
      ]);
      expect(await f.store.bundles(f.world.otherOrgId)).toEqual([]);
      const linked = await f.store.bundleGenerations([otherProjectId, projectId]);
      expect(linked.get(projectId)).toBe(before.get(projectId));
      expect(linked.get(otherProjectId)).toEqual(expect.any(String));

      await f.store.deleteBundle(f.world.otherOrgId, saved.id);
      expect(await f.store.files(saved.id)).toHaveLength(2);
      await f.store.deleteBundle(orgId, saved.id);
      expect(await f.store.bundles(orgId)).toEqual([]);
      expect(await f.store.files(saved.id)).toEqual([]);
      expect(await f.store.content(files[0]?.id ?? 0)).toBeNull();
      expect((await f.store.bundleGenerations([projectId, otherProjectId])).size).toBe(0);
    });

    it("finds the newest bundle's files of a project by debug id and by release, dist and URL", async () => {
      const { projectId, otherProjectId } = f.world;
      const older = await f.store.saveBundle(bundle("old"), 4_000);
      const newer = await f.store.saveBundle(bundle("new"), 5_000);
      const gen = (await f.store.bundleGenerations([projectId])).get(projectId);
      await f.store.saveBundle(bundle("dist", { dist: "d1", projectIds: [projectId] }), 6_000);
      expect((await f.store.bundleGenerations([projectId])).get(projectId)).not.toBe(gen);

      const match = await f.store.byDebugId(projectId, DEBUG_ID.toUpperCase());
      expect([match.minified?.url, match.sourceMap?.url]).toEqual(["~/app.min.js", "~/app.min.js.map"]);
      expect(String(await f.store.content(match.minified?.id ?? 0))).toBe("code dist");
      expect(await f.store.byDebugId(otherProjectId, DEBUG_ID)).toEqual({ minified: null, sourceMap: null });

      const hit = await f.store.byUrl(projectId, "1.0", null, ["http://x/app.min.js", "~/app.min.js"]);
      expect(hit).toMatchObject({ bundleId: newer.id, url: "~/app.min.js" });
      expect(await f.store.byUrl(projectId, "1.0", "d1", ["~/app.min.js.map"])).toMatchObject({ url: "~/app.min.js.map", size: 8 });
      expect(await f.store.byUrl(projectId, "1.0", "d2", ["~/app.min.js"])).toBeNull();
      expect(await f.store.byUrl(projectId, "2.0", null, ["~/app.min.js"])).toBeNull();
      expect(await f.store.byUrl(otherProjectId, "1.0", null, ["~/app.min.js"])).toBeNull();
      expect(await f.store.byUrl(projectId, "1.0", null, [])).toBeNull();
      expect(older.id).toBeLessThan(newer.id);
    });
  });
}
