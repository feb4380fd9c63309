import { readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { makeBundle, makeZip, SOURCE_BUNDLE_HEADER } from "../../../test/support/zip";
import { normalizeDebugId, readBundle } from "./bundle";
import { ARTIFACT_LIMITS } from "./limits";

const FIXTURES = join(import.meta.dirname, "../../../test/fixtures/sourcemaps");
const fixture = (name: string) => readFileSync(join(FIXTURES, name));

describe("readBundle", () => {
  it("reads the files and manifest of a bundle sentry-cli 3.8 uploaded with debug ids", async () => {
    const { manifest, files } = await readBundle(fixture("bundle-debug-ids.zip"));
    expect(manifest).toEqual(JSON.parse(fixture("bundle-debug-ids.manifest.json").toString("utf8")));
    expect(files.map(({ data, ...f }) => ({ ...f, size: data.length }))).toEqual([
      {
        url: "~/app.min.js",
        type: "minified_source",
        debugId: "1ce95249-aa99-5ad3-845f-4f058952934a",
        sourcemap: "app.min.js.map",
        size: 494,
      },
      { url: "~/app.min.js.map", type: "source_map", debugId: "1ce95249-aa99-5ad3-845f-4f058952934a", sourcemap: null, size: 397 },
    ]);
    expect(files[0]!.data.toString("utf8")).toContain("//# debugId=1ce95249-aa99-5ad3-845f-4f058952934a");
  });

  it("reads release, dist and ~/static URLs of a bundle uploaded without debug ids", async () => {
    const { manifest, files } = await readBundle(fixture("bundle-release-dist.zip"));
    expect(manifest).toMatchObject({ release: "1.0", dist: "d1", project: "web" });
    expect(files.map((f) => [f.url, f.type, f.debugId, f.sourcemap])).toEqual([
      ["~/static/app.min.js", "minified_source", null, "app.min.js.map"],
      ["~/static/app.min.js.map", "source_map", null, null],
    ]);
  });

  it("refuses a manifest that names a path with '..'", async () => {
    const zip = makeZip(
      [
        { name: "files/x.js", data: Buffer.from("x") },
        {
          name: "manifest.json",
          data: Buffer.from(JSON.stringify({ files: { "files/../x.js": { type: "minified_source", url: "~/x.js" } } })),
        },
      ],
      SOURCE_BUNDLE_HEADER,
    );
    await expect(readBundle(zip)).rejects.toThrow(/'\.\.'/);
    const badUrl = makeBundle({ "a.js": "a" });
    const manifest = { files: { "files/_/_/a.js": { type: "minified_source", url: "~/../../a.js" } } };
    const zip2 = makeZip(
      [
        { name: "files/_/_/a.js", data: Buffer.from("a") },
        { name: "manifest.json", data: Buffer.from(JSON.stringify(manifest)) },
      ],
      SOURCE_BUNDLE_HEADER,
    );
    expect((await readBundle(badUrl)).files).toHaveLength(1);
    await expect(readBundle(zip2)).rejects.toThrow(/'\.\.'/);
  });

  it("refuses a zip entry whose own name climbs out with '..'", async () => {
    const zip = makeZip([{ name: "../evil.js", data: Buffer.from("x") }], SOURCE_BUNDLE_HEADER);
    await expect(readBundle(zip)).rejects.toMatchObject({ code: "invalid_input" });
  });

  it("refuses a zip bomb: more uncompressed bytes than the limit, or an entry larger than its header says", async () => {
    const big = Buffer.alloc(ARTIFACT_LIMITS.maxUncompressedSize / 4 + 1);
    const bomb = makeZip(
      [0, 1, 2, 3].map((i) => ({ name: `files/${i}.js`, data: big })),
      SOURCE_BUNDLE_HEADER,
    );
    expect(bomb.length).toBeLessThan(2 * 1024 * 1024);
    await expect(readBundle(bomb)).rejects.toThrow(/uncompressed/);
    const liar = makeZip([{ name: "manifest.json", data: Buffer.alloc(100_000, 0x20), declaredSize: 10 }], SOURCE_BUNDLE_HEADER);
    await expect(readBundle(liar)).rejects.toMatchObject({ code: "invalid_input" });
  });

  it("refuses more files than the limit", async () => {
    const many = makeZip(
      Array.from({ length: ARTIFACT_LIMITS.maxBundleFiles + 1 }, (_, i) => ({ name: `files/${i}.js`, data: Buffer.from("x") })),
      SOURCE_BUNDLE_HEADER,
    );
    await expect(readBundle(many)).rejects.toThrow(/more than/);
  });

  it("refuses bytes that are no zip, a manifest that is not JSON, and a file the manifest names but the zip lacks", async () => {
    await expect(readBundle(Buffer.from("not a zip at all"))).rejects.toMatchObject({ code: "invalid_input" });
    await expect(readBundle(Buffer.concat([SOURCE_BUNDLE_HEADER, Buffer.from("garbage")]))).rejects.toMatchObject({
      code: "invalid_input",
    });
    const notJson = makeZip([{ name: "manifest.json", data: Buffer.from("{") }], SOURCE_BUNDLE_HEADER);
    await expect(readBundle(notJson)).rejects.toThrow(/not JSON/);
    const lacking = makeZip(
      [{ name: "manifest.json", data: Buffer.from(JSON.stringify({ files: { "files/a.js": { type: "source", url: "~/a.js" } } })) }],
      SOURCE_BUNDLE_HEADER,
    );
    await expect(readBundle(lacking)).rejects.toThrow(/does not hold/);
  });
});

describe("normalizeDebugId", () => {
  it("lowercases and hyphenates a UUID and refuses anything else", () => {
    expect(normalizeDebugId("1CE95249AA995AD3845F4F058952934A")).toBe("1ce95249-aa99-5ad3-845f-4f058952934a");
    expect(normalizeDebugId("not-a-uuid")).toBeNull();
    expect(normalizeDebugId(undefined)).toBeNull();
  });
});
