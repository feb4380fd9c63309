import { createHash } from "node:crypto";
import type { Ctx } from "../context";
import type { BundleFile } from "../sourcemaps/bundle";
import { ARTIFACT_LIMITS } from "../sourcemaps/limits";
import { findInternalProject } from "./internal-project";

/**
 * Telltale's own browser bundle, symbolicated out of the box: the build gives
 * every browser chunk and its map one debug id (`sentry-cli sourcemaps inject`, scripts/build.mjs),
 * and each start registers that build's chunks and maps as an artifact bundle of the internal
 * project, so its events resolve by debug id like any uploaded build's
 * (docs/decisions/0015-own-source-maps.md).
 */
export const OWN_MAPS_LIMITS: Readonly<OwnMapsLimits> = {
  /**
   * Chunks and maps of one build, uncompressed. Next 16.4's build of Telltale is about 6 MB; a
   * build far past this is not what it should be, and is not read at every start.
   */
  maxBytes: 32 * 1024 * 1024,
  maxFiles: ARTIFACT_LIMITS.maxBundleFiles,
};

/**
 * Builds whose maps are kept. After a deploy, browser tabs opened before it keep running the old
 * build's chunks for hours, and during a rolling deploy an old process serves them too: their
 * errors still resolve while their build is among the newest three registered. Three builds of
 * Telltale are ~6 MB of stored maps (about 2 MB each, compressed).
 */
export const OWN_BUILDS_KEPT = 3;

/** Marks the bundles this registers (`telltale-build:<BUILD_ID>`): uploads' checksums are SHA-1 hex, never this. */
export const OWN_BUILD_CHECKSUM_PREFIX = "telltale-build:";

export type OwnBuildFiles = { files: BundleFile[]; bytes: number } | { over: "bytes" | "files"; bytes: number; files: number };

export interface OwnMapsLimits {
  maxBytes: number;
  maxFiles: number;
}

/** A built app: its id (Next's BUILD_ID) and a reader of its chunks and maps, stopping at the limits. */
export interface OwnBuild {
  id: string;
  read(limits: OwnMapsLimits): Promise<OwnBuildFiles>;
}

export type OwnMapsOutcome =
  | { status: "no-internal-project" }
  | { status: "unchanged" }
  | { status: "no-debug-ids" }
  | { status: "too-large"; over: "bytes" | "files"; bytes: number; files: number }
  /** `dropped`: older builds' bundles deleted to keep OWN_BUILDS_KEPT. */
  | { status: "registered"; files: number; bytes: number; dropped: number };

/** A stable bundle id for a build: the SHA-1 of its checksum in UUID form. */
function bundleIdOf(checksum: string): string {
  const hex = createHash("sha1").update(checksum).digest("hex");
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20, 32)}`;
}

/**
 * Registers the build's maps for the internal project once per build: a start with a build
 * already registered reads no file. Only the OWN_BUILDS_KEPT most recently registered builds are
 * kept, so storage holds a few builds whatever the number of deploys, and a process of an older
 * build starting again during a rolling deploy drops no newer build's maps. Two processes
 * starting together (PostgreSQL, several app processes) store it once: the second's insert
 * meets the unique checksum.
 */
export async function registerOwnMaps({ ctx, input }: { ctx: Ctx; input: { build: OwnBuild } }): Promise<OwnMapsOutcome> {
  const internal = await findInternalProject(ctx);
  if (!internal) return { status: "no-internal-project" };
  const checksum = `${OWN_BUILD_CHECKSUM_PREFIX}${input.build.id}`;
  const ownBundles = async () =>
    (await ctx.artifacts.bundles(internal.organizationId)).filter((b) => b.checksum.startsWith(OWN_BUILD_CHECKSUM_PREFIX));
  // The newest registered first (the id breaks a tie of two registered in one millisecond).
  const dropOld = async () => {
    const newestFirst = (await ownBundles()).sort((a, b) => b.createdAt - a.createdAt || b.id - a.id);
    const old = newestFirst.slice(OWN_BUILDS_KEPT);
    for (const b of old) await ctx.artifacts.deleteBundle(internal.organizationId, b.id);
    return old.length;
  };

  if ((await ownBundles()).some((b) => b.checksum === checksum)) {
    // The internal project may have been made again since; the bundle must serve the one there is now.
    await ctx.artifacts.linkProjects(internal.organizationId, checksum, [internal.id]);
    await dropOld();
    return { status: "unchanged" };
  }
  const read = await input.build.read(OWN_MAPS_LIMITS);
  if ("over" in read) return { status: "too-large", over: read.over, bytes: read.bytes, files: read.files };
  if (!read.files.some((f) => f.type === "source_map" && f.debugId !== null)) return { status: "no-debug-ids" };
  try {
    await ctx.artifacts.saveBundle(
      {
        organizationId: internal.organizationId,
        bundleId: bundleIdOf(checksum),
        checksum,
        release: null,
        dist: null,
        size: read.bytes,
        projectIds: [internal.id],
        files: read.files,
      },
      ctx.now(),
    );
  } catch (error) {
    // Another process registered this build first: its bundle is the one wanted.
    if ((await ownBundles()).some((b) => b.checksum === checksum)) return { status: "unchanged" };
    throw error;
  }
  const dropped = await dropOld();
  return { status: "registered", files: read.files.length, bytes: read.bytes, dropped };
}
