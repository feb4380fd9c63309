import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { DIALECTS, openTestStore, testCtx, type TestStore } from "../../../test/support/stores";
import type { Ctx } from "../context";
import type { BundleFile } from "../sourcemaps/bundle";
import { findInternalProject } from "./internal-project";
import { OWN_BUILD_CHECKSUM_PREFIX, OWN_MAPS_LIMITS, registerOwnMaps, type OwnBuild, type OwnBuildFiles } from "./own-maps";

const debugIdOf = (n: number) => `00000000-0000-4000-8000-${String(n).padStart(12, "0")}`;

/**
 * A build of `chunks` chunks, each with its map, counting how often its files were read. Its
 * chunks' debug ids start at `firstDebugId`: a chunk that changes between builds gets a new one.
 */
function fakeBuild(id: string, chunks: number, firstDebugId = 1): OwnBuild & { reads: { n: number } } {
  const reads = { n: 0 };
  return {
    id,
    reads,
    async read(): Promise<OwnBuildFiles> {
      reads.n++;
      const files: BundleFile[] = [];
      for (let i = 1; i <= chunks; i++) {
        const debugId = debugIdOf(firstDebugId + i - 1);
        files.push(
          {
            url: `~/_next/static/chunks/${id}-${i}.js`,
            type: "minified_source",
            debugId,
            sourcemap: `${id}-${i}.js.map`,
            data: Buffer.from(`a${i}()`),
          },
          { url: `~/_next/static/chunks/${id}-${i}.js.map`, type: "source_map", debugId, sourcemap: null, data: Buffer.from("{}") },
        );
      }
      return { files, bytes: files.reduce((n, f) => n + f.data.length, 0) };
    },
  };
}

describe.each(DIALECTS)("registering Telltale's own source maps on %s", (dialect) => {
  let store: TestStore;
  let ctx: Ctx;
  let internal: { id: number; organizationId: number };

  beforeAll(async () => {
    store = await openTestStore(dialect);
    ctx = testCtx(store);
    internal = (await findInternalProject(ctx))!;
  });
  afterAll(async () => {
    await store.cleanup();
  });

  const own = async () =>
    (await ctx.artifacts.bundles(internal.organizationId)).filter((b) => b.checksum.startsWith(OWN_BUILD_CHECKSUM_PREFIX));

  it("stores a build's chunks and maps for the internal project, found by their debug ids", async () => {
    await expect(registerOwnMaps({ ctx, input: { build: fakeBuild("b1", 3) } })).resolves.toEqual({
      status: "registered",
      files: 6,
      bytes: 3 * 4 + 3 * 2,
      dropped: 0,
    });
    const [bundle] = await own();
    expect(bundle).toMatchObject({ checksum: `${OWN_BUILD_CHECKSUM_PREFIX}b1`, fileCount: 6, projectIds: [internal.id], release: null });
    const found = await ctx.artifacts.byDebugId(internal.id, debugIdOf(2));
    expect([found.minified?.url, found.sourceMap?.url]).toEqual(["~/_next/static/chunks/b1-2.js", "~/_next/static/chunks/b1-2.js.map"]);
  });

  it("does nothing, and reads no file, when started again with the same build", async () => {
    const before = await own();
    const build = fakeBuild("b1", 3);
    await expect(registerOwnMaps({ ctx, input: { build } })).resolves.toEqual({ status: "unchanged" });
    expect(build.reads.n).toBe(0);
    expect(await own()).toEqual(before);
  });

  it("keeps the newest three builds' bundles, drops older ones, and leaves uploaded bundles alone", async () => {
    // Someone uploaded a bundle of their own to the internal project with sentry-cli: not ours to drop.
    const uploaded = await ctx.artifacts.saveBundle(
      {
        organizationId: internal.organizationId,
        bundleId: debugIdOf(99),
        checksum: "a".repeat(40),
        release: null,
        dist: null,
        size: 1,
        projectIds: [internal.id],
        files: [{ url: "~/x.js", type: "minified_source", debugId: debugIdOf(99), sourcemap: null, data: Buffer.from("x") }],
      },
      ctx.now(),
    );
    const first = (await own())[0]!;
    for (const [build, firstDebugId] of [
      ["b2", 11],
      ["b3", 21],
    ] as const)
      await expect(registerOwnMaps({ ctx, input: { build: fakeBuild(build, 2, firstDebugId) } })).resolves.toMatchObject({
        status: "registered",
        dropped: 0,
      });
    // A tab opened before the deploys still runs b1's chunks: they resolve.
    expect((await ctx.artifacts.byDebugId(internal.id, debugIdOf(2))).minified?.url).toBe("~/_next/static/chunks/b1-2.js");
    await expect(registerOwnMaps({ ctx, input: { build: fakeBuild("b4", 2, 31) } })).resolves.toMatchObject({
      status: "registered",
      dropped: 1,
    });
    const kept = await own();
    expect(kept.map((b) => b.checksum).sort()).toEqual(["b2", "b3", "b4"].map((b) => `${OWN_BUILD_CHECKSUM_PREFIX}${b}`));
    // The oldest build's files are gone with it; the newer builds' are found.
    expect(await ctx.artifacts.files(first.id)).toEqual([]);
    expect((await ctx.artifacts.byDebugId(internal.id, debugIdOf(2))).minified).toBeNull();
    expect((await ctx.artifacts.byDebugId(internal.id, debugIdOf(11))).minified?.url).toBe("~/_next/static/chunks/b2-1.js");
    expect((await ctx.artifacts.byDebugId(internal.id, debugIdOf(31))).minified?.url).toBe("~/_next/static/chunks/b4-1.js");
    expect((await ctx.artifacts.bundles(internal.organizationId)).map((b) => b.id)).toContain(uploaded.id);
  });

  it("drops no newer build's maps when a process of an older build starts again (a rolling deploy)", async () => {
    const before = (await own()).map((b) => b.checksum).sort();
    const old = fakeBuild("b2", 2, 11);
    await expect(registerOwnMaps({ ctx, input: { build: old } })).resolves.toEqual({ status: "unchanged" });
    expect(old.reads.n).toBe(0);
    expect((await own()).map((b) => b.checksum).sort()).toEqual(before);
  });

  it("stores a build once when two processes start with it together", async () => {
    const outcomes = await Promise.all([
      registerOwnMaps({ ctx, input: { build: fakeBuild("b5", 2, 41) } }),
      registerOwnMaps({ ctx, input: { build: fakeBuild("b5", 2, 41) } }),
    ]);
    expect(outcomes.map((o) => o.status).sort()).toEqual(["registered", "unchanged"]);
    expect((await own()).filter((b) => b.checksum === `${OWN_BUILD_CHECKSUM_PREFIX}b5`)).toHaveLength(1);
  });

  it("stores nothing for a build over the limit or without debug ids, and keeps the last build's maps", async () => {
    const tooLarge: OwnBuild = {
      id: "huge",
      read: async (limits) => ({ over: "bytes", bytes: limits.maxBytes + 1, files: 10 }),
    };
    await expect(registerOwnMaps({ ctx, input: { build: tooLarge } })).resolves.toEqual({
      status: "too-large",
      over: "bytes",
      bytes: OWN_MAPS_LIMITS.maxBytes + 1,
      files: 10,
    });
    const noIds: OwnBuild = { id: "plain", read: async () => ({ files: [], bytes: 0 }) };
    await expect(registerOwnMaps({ ctx, input: { build: noIds } })).resolves.toEqual({ status: "no-debug-ids" });
    expect((await own()).map((b) => b.checksum).sort()).toEqual(["b3", "b4", "b5"].map((b) => `${OWN_BUILD_CHECKSUM_PREFIX}${b}`));
  });

  it("registers nothing when the internal project was removed", async () => {
    await store.db.deleteFrom("projects").where("id", "=", internal.id).execute();
    const build = fakeBuild("b6", 1, 51);
    await expect(registerOwnMaps({ ctx, input: { build } })).resolves.toEqual({ status: "no-internal-project" });
    expect(build.reads.n).toBe(0);
  });
});
