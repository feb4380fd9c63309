import { open, readFile, readdir, stat } from "node:fs/promises";
import { dirname, join, relative, resolve, sep } from "node:path";
import type { Ctx } from "../core/context";
import { registerOwnMaps, type OwnBuild, type OwnBuildFiles, type OwnMapsLimits } from "../core/selfmon/own-maps";
import { normalizeDebugId, type BundleFile } from "../core/sourcemaps/bundle";
import { log } from "./log";

/** The trailing comments `sentry-cli sourcemaps inject` leaves at the end of a chunk. */
const DEBUG_ID_COMMENT = /\/\/# debugId=([0-9a-fA-F-]{32,36})\s*$/m;
const MAP_COMMENT = /\/\/# sourceMappingURL=(\S+)\s*$/m;
/** How far from a chunk's end those comments are looked for. */
const TAIL = 1024;

async function jsFiles(dir: string): Promise<string[]> {
  const entries = await readdir(dir, { withFileTypes: true });
  const nested = await Promise.all(
    entries.map((e) => (e.isDirectory() ? jsFiles(join(dir, e.name)) : Promise.resolve(e.name.endsWith(".js") ? [join(dir, e.name)] : []))),
  );
  return nested.flat().sort();
}

/**
 * The built app in `dir/.next`: its BUILD_ID and its browser chunks that carry a debug id, each
 * with its map, as bundle files under `~/_next/static/…` (the path the browser loads them from).
 * Sizes are checked before a file is read, so a build over the limits costs a directory listing.
 */
export async function nextBuild(dir: string): Promise<OwnBuild | null> {
  let id: string;
  try {
    id = (await readFile(join(dir, ".next", "BUILD_ID"), "utf8")).trim();
  } catch {
    return null;
  }
  if (!id) return null;
  const staticDir = join(dir, ".next", "static");
  const urlOf = (file: string) => `~/_next/static/${relative(staticDir, file).split(sep).join("/")}`;
  return {
    id,
    async read(limits: OwnMapsLimits): Promise<OwnBuildFiles> {
      const files: BundleFile[] = [];
      let bytes = 0;
      let taken = 0;
      const take = async (path: string, size: number) => {
        bytes += size;
        taken++;
        if (bytes > limits.maxBytes || taken > limits.maxFiles) return null;
        return readFile(path);
      };
      for (const js of await jsFiles(staticDir)) {
        const jsSize = (await stat(js)).size;
        const tailText = await readTail(js, jsSize);
        const debugId = normalizeDebugId(DEBUG_ID_COMMENT.exec(tailText)?.[1]);
        const mapRef = MAP_COMMENT.exec(tailText)?.[1];
        if (!debugId || !mapRef || mapRef.startsWith("data:")) continue;
        const mapPath = mapPathOf(js, mapRef);
        if (mapPath === null || !mapPath.startsWith(staticDir + sep)) continue;
        const mapSize = await stat(mapPath).then(
          (s) => s.size,
          () => null,
        );
        if (mapSize === null) continue;
        const jsData = await take(js, jsSize);
        const mapData = jsData && (await take(mapPath, mapSize));
        if (!jsData || !mapData) return { over: bytes > limits.maxBytes ? "bytes" : "files", bytes, files: files.length };
        files.push(
          { url: urlOf(js), type: "minified_source", debugId, sourcemap: mapRef, data: jsData },
          { url: urlOf(mapPath), type: "source_map", debugId, sourcemap: null, data: mapData },
        );
      }
      return { files, bytes };
    },
  };
}

/** The file a chunk's `sourceMappingURL` names, beside it; null when the reference does not decode. */
function mapPathOf(js: string, ref: string): string | null {
  try {
    return resolve(dirname(js), decodeURIComponent(ref.split("?")[0] ?? ""));
  } catch {
    return null;
  }
}

async function readTail(path: string, size: number): Promise<string> {
  const handle = await open(path, "r");
  try {
    const length = Math.min(TAIL, size);
    const buffer = Buffer.alloc(length);
    await handle.read(buffer, 0, length, size - length);
    return buffer.toString("utf8");
  } finally {
    await handle.close();
  }
}

/**
 * Registers the maps of the app built in `dir` for the internal project (called once the UI
 * answers, off the request path; a failure is logged and changes nothing else).
 */
export async function registerBuildMaps(ctx: Ctx, dir: string): Promise<void> {
  const started = Date.now();
  try {
    const build = await nextBuild(dir);
    if (!build) return log("warn", "own source maps not registered: no Next.js build", { dir });
    const outcome = await registerOwnMaps({ ctx, input: { build } });
    const fields = { build: build.id, ms: Date.now() - started };
    switch (outcome.status) {
      case "registered":
        return log("info", "own source maps registered", {
          ...fields,
          files: outcome.files,
          bytes: outcome.bytes,
          dropped: outcome.dropped,
        });
      case "unchanged":
        return log("info", "own source maps already registered", fields);
      case "too-large":
        return log("warn", "own source maps not registered: the build is over the limit", {
          ...fields,
          over: outcome.over,
          bytes: outcome.bytes,
          files: outcome.files,
        });
      case "no-debug-ids":
        return log("warn", "own source maps not registered: the browser chunks carry no debug ids (built without sentry-cli)", fields);
      case "no-internal-project":
        return log("info", "own source maps not registered: there is no internal project", fields);
    }
  } catch (error) {
    log("error", "own source maps not registered", { error: error instanceof Error ? error.message : String(error) });
  }
}
