import yauzl from "yauzl";
import { z } from "zod";
import { invalidInput } from "../errors";
import { ARTIFACT_LIMITS } from "./limits";

/**
 * An artifact bundle as sentry-cli 3.x builds it (captured in test/fixtures/sourcemaps/): `SYSB`
 * and a little-endian u32 version, then a zip whose offsets count from the start of the file,
 * holding `manifest.json` and the files under `files/`. Plain zips are read too.
 */
const MAGIC = Buffer.from("SYSB");

export const BundleManifest = z.object({
  files: z.record(
    z.string().max(2048),
    z.object({
      type: z.string().max(64),
      url: z.string().min(1).max(2048),
      headers: z.record(z.string().max(256), z.string().max(2048)).optional(),
    }),
  ),
  debug_id: z.string().max(64).optional(),
  org: z.string().max(256).optional(),
  project: z.string().max(256).optional(),
  release: z.string().max(250).optional(),
  dist: z.string().max(64).optional(),
});
export type BundleManifest = z.infer<typeof BundleManifest>;

export interface BundleFile {
  url: string;
  type: string;
  debugId: string | null;
  sourcemap: string | null;
  data: Buffer;
}

export interface ReadBundle {
  manifest: BundleManifest;
  files: BundleFile[];
}

const UUID = /^[0-9a-f]{8}-?[0-9a-f]{4}-?[0-9a-f]{4}-?[0-9a-f]{4}-?[0-9a-f]{12}$/i;

/** A debug id in its canonical form (lowercase, hyphenated), or null when it is not one. */
export function normalizeDebugId(value: string | undefined): string | null {
  if (value === undefined || !UUID.test(value)) return null;
  const hex = value.replace(/-/g, "").toLowerCase();
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20)}`;
}

/** A path segment `..` or `.` anywhere, a backslash or a NUL: nothing a bundle needs, a way out of a prefix. */
function hasPathTricks(path: string): boolean {
  return /[\\\0]/.test(path) || path.split("/").some((s) => s === ".." || s === ".");
}

function header(headers: Record<string, string> | undefined, name: string): string | null {
  if (!headers) return null;
  for (const [k, v] of Object.entries(headers)) if (k.toLowerCase() === name) return v;
  return null;
}

/** Every entry's bytes, bounded in count and in uncompressed size (yauzl checks each entry's size against its header). */
async function entries(zip: Buffer): Promise<Map<string, Buffer>> {
  const file = await new Promise<yauzl.ZipFile>((resolve, reject) =>
    yauzl.fromBuffer(zip, { lazyEntries: true, validateEntrySizes: true, strictFileNames: true }, (err, z) =>
      err ? reject(err) : resolve(z),
    ),
  );
  const out = new Map<string, Buffer>();
  let total = 0;
  if (file.entryCount > ARTIFACT_LIMITS.maxBundleFiles)
    throw invalidInput(`the bundle has more than ${ARTIFACT_LIMITS.maxBundleFiles} files`);
  return new Promise((resolve, reject) => {
    const fail = (e: unknown) => {
      file.close();
      reject(e instanceof Error ? e : new Error(String(e)));
    };
    file.on("error", fail);
    file.on("end", () => resolve(out));
    file.on("entry", (entry: yauzl.Entry) => {
      if (entry.fileName.endsWith("/")) return file.readEntry();
      if (hasPathTricks(entry.fileName)) return fail(invalidInput(`the bundle holds a path with '..': ${entry.fileName.slice(0, 200)}`));
      total += entry.uncompressedSize;
      if (total > ARTIFACT_LIMITS.maxUncompressedSize)
        return fail(invalidInput(`the bundle is over ${ARTIFACT_LIMITS.maxUncompressedSize} bytes uncompressed`));
      file.openReadStream(entry, (err, stream) => {
        if (err) return fail(err);
        const parts: Buffer[] = [];
        let size = 0;
        stream.on("data", (d: Buffer) => {
          size += d.length;
          if (size > entry.uncompressedSize) stream.destroy(new Error("an entry is larger than its header says"));
          else parts.push(d);
        });
        stream.on("error", fail);
        stream.on("end", () => {
          out.set(entry.fileName, Buffer.concat(parts));
          file.readEntry();
        });
      });
    });
    file.readEntry();
  });
}

/** Opens a bundle and its manifest; anything malformed or over a limit is an `invalid_input` error. */
export async function readBundle(bytes: Buffer): Promise<ReadBundle> {
  if (bytes.subarray(0, 4).equals(MAGIC)) {
    if (bytes.length < 8) throw invalidInput("the bundle is truncated");
  } else if (bytes.length < 4 || bytes.readUInt32LE(0) !== 0x04034b50) {
    throw invalidInput("the bundle is neither a source bundle nor a zip");
  }
  let all: Map<string, Buffer>;
  try {
    all = await entries(bytes);
  } catch (e) {
    if (e instanceof Error && e.name === "TelltaleError") throw e;
    throw invalidInput(`the bundle is not a readable zip: ${e instanceof Error ? e.message : String(e)}`);
  }
  const rawManifest = all.get("manifest.json");
  if (!rawManifest) throw invalidInput("the bundle has no manifest.json");
  if (rawManifest.length > ARTIFACT_LIMITS.maxManifestSize) throw invalidInput("manifest.json is too large");
  let parsed: unknown;
  try {
    parsed = JSON.parse(rawManifest.toString("utf8"));
  } catch {
    throw invalidInput("manifest.json is not JSON");
  }
  const manifest = BundleManifest.safeParse(parsed);
  if (!manifest.success) throw invalidInput(`manifest.json is not a bundle manifest: ${manifest.error.issues[0]?.message ?? ""}`);
  const files: BundleFile[] = [];
  for (const [path, info] of Object.entries(manifest.data.files)) {
    if (hasPathTricks(path) || hasPathTricks(info.url)) throw invalidInput(`the manifest names a path with '..': ${path.slice(0, 200)}`);
    const data = all.get(path);
    if (!data) throw invalidInput(`the manifest names ${path.slice(0, 200)}, which the bundle does not hold`);
    files.push({
      url: info.url,
      type: info.type,
      debugId: normalizeDebugId(header(info.headers, "debug-id") ?? undefined),
      sourcemap: header(info.headers, "sourcemap"),
      data,
    });
  }
  return { manifest: manifest.data, files };
}
