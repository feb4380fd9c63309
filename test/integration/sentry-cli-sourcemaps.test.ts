import { createHash } from "node:crypto";
import { cpSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { gzipSync } from "node:zlib";
import { buildSync } from "esbuild";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Ctx } from "../../src/core/context";
import { createProject } from "../../src/core/projects/create-project";
import { ARTIFACT_LIMITS } from "../../src/core/sourcemaps/limits";
import { findByDebugId, findByUrl } from "../../src/core/sourcemaps/lookup";
import { createToken, issueOrgToken, userIdByEmail } from "../../src/core/tokens/tokens";
import { sentryCli } from "../support/clients";
import { openCliProject, type CliProject } from "../support/cli-project";
import { DIALECTS, type TestStore } from "../support/stores";
import { makeBundle, makeZip, SOURCE_BUNDLE_HEADER } from "../support/zip";

const sha1 = (b: Buffer) => createHash("sha1").update(b).digest("hex");

/** A small app bundled and minified by esbuild with a source map, in a fresh directory. */
function buildApp(dir: string): { js: string; map: string } {
  mkdirSync(join(dir, "src"), { recursive: true });
  writeFileSync(
    join(dir, "src", "greet.js"),
    'export function greet(name) {\n  if (!name) throw new Error("no name given");\n  return "hello " + name;\n}\n',
  );
  writeFileSync(join(dir, "src", "main.js"), 'import { greet } from "./greet.js";\ngreet(globalThis.who);\n');
  buildSync({
    entryPoints: [join(dir, "src", "main.js")],
    bundle: true,
    minify: true,
    sourcemap: true,
    outfile: join(dir, "dist", "app.min.js"),
    logLevel: "silent",
  });
  return { js: join(dir, "dist", "app.min.js"), map: join(dir, "dist", "app.min.js.map") };
}

/**
 * Issue 13, item 1: the real sentry-cli 3.8 (npm @sentry/cli) uploads source maps to Telltale
 * through chunk-upload and artifact-bundle assemble, with and without debug ids; the stored index
 * answers the lookups symbolication will make. Hostile uploads get a clear 4xx or an `error`
 * state and store nothing. Both databases, through the real router.
 */
describe.each(DIALECTS)("sentry-cli sourcemaps upload on %s", (dialect) => {
  let bench: CliProject;
  let store: TestStore;
  let ctx: Ctx;
  let api: CliProject["api"];
  let token = "";
  let orgId = 0;
  let webId = 0;
  let work = "";

  beforeAll(async () => {
    bench = await openCliProject(dialect);
    ({ store, ctx, api, token, orgId, projectId: webId, work } = bench);
    await createProject({ ctx, input: { org: "acme", slug: "api", platform: "node" } });
  });
  afterAll(() => bench.close());

  const cli = (args: string[], t = token) => sentryCli(api.base, t, args);
  const post = (path: string, body: BodyInit, headers: Record<string, string> = {}, t = token) =>
    fetch(`${api.base}/api/0/organizations/acme/${path}`, { method: "POST", body, headers: { authorization: `Bearer ${t}`, ...headers } });
  const assemble = (body: unknown) =>
    post("artifactbundle/assemble/", JSON.stringify(body), { "content-type": "application/json" }).then(async (r) => ({
      status: r.status,
      body: (await r.json()) as { state?: string; missingChunks?: string[]; detail?: string },
    }));
  /** One multipart chunk upload as sentry-cli sends it: `file_gzip` parts named by the chunk's SHA-1. */
  const uploadChunks = (chunks: { name: string; data: Buffer }[]) => {
    const form = new FormData();
    for (const c of chunks) form.append("file_gzip", new Blob([new Uint8Array(gzipSync(c.data))]), c.name);
    return post("chunk-upload/", form);
  };
  const bundleCount = async () => (await ctx.artifacts.bundles(orgId)).length;

  it("answers the chunk-upload options sentry-cli asks first", async () => {
    const res = await fetch(`${api.base}/api/0/organizations/acme/chunk-upload/`, { headers: { authorization: `Bearer ${token}` } });
    expect(res.status).toBe(200);
    expect(await res.json()).toMatchObject({
      url: `${api.base}/api/0/organizations/acme/chunk-upload/`,
      chunkSize: ARTIFACT_LIMITS.chunkSize,
      hashAlgorithm: "sha1",
      compression: ["gzip"],
      accept: expect.arrayContaining(["artifact_bundles"]) as unknown,
    });
  });

  it("stores a bundle with debug ids: inject, upload, and the minified file and its map are found by debug id", async () => {
    const dir = join(work, "with-ids");
    const { js, map } = buildApp(dir);
    const injected = await cli(["sourcemaps", "inject", join(dir, "dist")]);
    expect(injected.code, injected.out).toBe(0);
    const debugId = /\/\/# debugId=([0-9a-f-]{36})/.exec(readFileSync(js, "utf8"))?.[1];
    expect(debugId).toBeDefined();
    const uploaded = await cli(["sourcemaps", "upload", "--org", "acme", "--project", "web", join(dir, "dist")]);
    expect(uploaded.code, uploaded.out).toBe(0);

    const [bundle] = await ctx.artifacts.bundles(orgId);
    expect(bundle).toMatchObject({ release: null, dist: null, fileCount: 2, projectIds: [webId] });
    const files = await ctx.artifacts.files(bundle!.id);
    expect(files.map((f) => [f.url, f.type, f.debugId, f.sourcemap])).toEqual([
      ["~/app.min.js", "minified_source", debugId, "app.min.js.map"],
      ["~/app.min.js.map", "source_map", debugId, null],
    ]);
    const found = await findByDebugId(ctx, webId, debugId!.toUpperCase().replace(/-/g, ""));
    expect(found.minified?.url).toBe("~/app.min.js");
    expect((await ctx.artifacts.content(found.minified!.id))?.toString("utf8")).toBe(readFileSync(js, "utf8"));
    const mapText = (await ctx.artifacts.content(found.sourceMap!.id))!.toString("utf8");
    expect(JSON.parse(mapText)).toMatchObject({
      debugId,
      sources: expect.arrayContaining([expect.stringContaining("greet.js")]) as unknown,
    });
    expect(JSON.parse(readFileSync(map, "utf8"))).toMatchObject({ debugId });
    // The chunks are gone once their bundle is stored; the other project sees none of it.
    expect(await ctx.artifacts.missingChunks(orgId, [bundle!.checksum])).toEqual([bundle!.checksum]);
    const apiId = (await store.db.selectFrom("projects").select("id").where("slug", "=", "api").executeTakeFirstOrThrow()).id;
    expect(await ctx.artifacts.byDebugId(apiId, debugId!)).toEqual({ minified: null, sourceMap: null });
    // The same bundle assembled again for another project is linked to it, not stored twice.
    const again = await assemble({ checksum: bundle!.checksum, chunks: [bundle!.checksum], projects: ["api"] });
    expect(again.body).toEqual({ state: "ok", missingChunks: [] });
    expect((await ctx.artifacts.byDebugId(apiId, debugId!)).minified?.url).toBe("~/app.min.js");
    expect((await ctx.artifacts.bundles(orgId)).filter((b) => b.checksum === bundle!.checksum)).toHaveLength(1);
  });

  it("stores a bundle without debug ids for a release, dist and URL prefix, found by release + dist + ~/ URL", async () => {
    const dir = join(work, "no-ids");
    const { js } = buildApp(dir);
    const up = await cli([
      "sourcemaps",
      "upload",
      "--org",
      "acme",
      "--project",
      "web",
      "--release",
      "R",
      "--dist",
      "d1",
      "--url-prefix",
      "~/static",
      join(dir, "dist"),
    ]);
    expect(up.code, up.out).toBe(0);
    const bundle = (await ctx.artifacts.bundles(orgId)).find((b) => b.release === "R");
    expect(bundle).toMatchObject({ release: "R", dist: "d1", fileCount: 2 });
    const file = await ctx.artifacts.byUrl(webId, "R", "d1", ["http://example.com/static/app.min.js", "~/static/app.min.js"]);
    expect(file).toMatchObject({ url: "~/static/app.min.js", type: "minified_source", debugId: null, sourcemap: "app.min.js.map" });
    expect((await ctx.artifacts.content(file!.id))?.toString("utf8")).toBe(readFileSync(js, "utf8"));
    // As symbolication will ask: an event's abs_path on any host, its release and dist.
    const match = await findByUrl(ctx, webId, "R", "d1", "https://shop.example.com/static/app.min.js?v=2#x");
    expect(match?.minified.url).toBe("~/static/app.min.js");
    expect(match?.sourceMap).toMatchObject({ url: "~/static/app.min.js.map", type: "source_map" });
    expect(JSON.parse((await ctx.artifacts.content(match!.sourceMap!.id))!.toString("utf8"))).toMatchObject({ version: 3 });
    expect(await findByUrl(ctx, webId, "R", "d1", "https://shop.example.com/other.js")).toBeNull();
    expect(await ctx.artifacts.byUrl(webId, "R", null, ["~/static/app.min.js"])).toBeNull();
    expect(await ctx.artifacts.byUrl(webId, "other", "d1", ["~/static/app.min.js"])).toBeNull();

    const plain = join(work, "no-dist");
    cpSync(join(dir, "dist"), join(plain, "dist"), { recursive: true });
    writeFileSync(join(plain, "dist", "extra.js"), "console.log(1)\n");
    const noDist = await cli([
      "sourcemaps",
      "upload",
      "--org",
      "acme",
      "--project",
      "web",
      "--release",
      "R",
      "--url-prefix",
      "~/static",
      join(plain, "dist"),
    ]);
    expect(noDist.code, noDist.out).toBe(0);
    expect(await ctx.artifacts.byUrl(webId, "R", null, ["~/static/app.min.js"])).toMatchObject({ url: "~/static/app.min.js" });
  });

  it("works with an organization token alone: no --url, no --org", async () => {
    const owner = await userIdByEmail(ctx, "owner@example.com");
    const { token: orgToken } = await issueOrgToken(ctx, owner, { id: orgId, slug: "acme" }, { name: "CI" });
    const dir = join(work, "org-token");
    buildApp(dir);
    writeFileSync(join(dir, "dist", "marker.js"), "console.log('org token')\n");
    const before = await bundleCount();
    const up = await sentryCli(null, orgToken, ["sourcemaps", "upload", "--project", "web", "--release", "org-token", join(dir, "dist")]);
    expect(up.code, up.out).toBe(0);
    expect(await bundleCount()).toBe(before + 1);
  });

  it("refuses a project:read token (403), and sentry-cli fails with nothing stored", async () => {
    const reader = (await createToken({ ctx, input: { user: "owner@example.com", name: "reader", scopes: ["project:read", "org:read"] } }))
      .token;
    const refused = await post("chunk-upload/", new FormData(), {}, reader);
    expect(refused.status).toBe(403);
    const assembleRefused = await post("artifactbundle/assemble/", "{}", { "content-type": "application/json" }, reader);
    expect(assembleRefused.status).toBe(403);
    const dir = join(work, "reader");
    buildApp(dir);
    const before = await bundleCount();
    const up = await cli(["sourcemaps", "upload", "--org", "acme", "--project", "web", "--release", "nope", join(dir, "dist")], reader);
    expect(up.code).not.toBe(0);
    expect(up.out).toMatch(/permission/i);
    expect(await bundleCount()).toBe(before);
  });

  it("refuses a chunk whose SHA-1 does not match, and an oversized chunk, storing neither", async () => {
    const data = Buffer.from("some chunk bytes");
    const wrongName = sha1(Buffer.from("other bytes"));
    const bad = await uploadChunks([{ name: wrongName, data }]);
    expect(bad.status).toBe(400);
    expect(((await bad.json()) as { detail: string }).detail).toMatch(/SHA-1/);
    expect(await ctx.artifacts.missingChunks(orgId, [wrongName])).toEqual([wrongName]);

    const big = Buffer.alloc(ARTIFACT_LIMITS.chunkSize + 1, 7);
    const tooBig = await uploadChunks([{ name: sha1(big), data: big }]);
    expect(tooBig.status).toBe(400);
    expect(await ctx.artifacts.missingChunks(orgId, [sha1(big)])).toEqual([sha1(big)]);

    const garbage = await post("chunk-upload/", "--x\r\nnot multipart", { "content-type": "multipart/form-data; boundary=x" });
    expect(garbage.status).toBe(400);
    const many = await uploadChunks(
      Array.from({ length: ARTIFACT_LIMITS.chunksPerRequest + 1 }, (_, i) => ({ name: sha1(Buffer.from([i])), data: Buffer.from([i]) })),
    );
    expect(many.status).toBe(400);
  });

  it("answers not_found with the missing chunks, then error for a wrong total checksum, a zip bomb, too many files and a ../ path", async () => {
    const ok = makeBundle({ "a.js": "console.log(1)" });
    expect(await assemble({ checksum: sha1(ok), chunks: [sha1(ok)], projects: ["web"] })).toEqual({
      status: 200,
      body: { state: "not_found", missingChunks: [sha1(ok)] },
    });

    const cases: { name: string; bytes: Buffer; checksum?: string; detail: RegExp }[] = [
      { name: "wrong checksum", bytes: ok, checksum: sha1(Buffer.from("not the bundle")), detail: /SHA-1/ },
      {
        name: "zip bomb",
        bytes: makeZip(
          [0, 1, 2, 3].map((i) => ({ name: `files/${i}.js`, data: Buffer.alloc(ARTIFACT_LIMITS.maxUncompressedSize / 4 + 1) })),
          SOURCE_BUNDLE_HEADER,
        ),
        detail: /uncompressed/,
      },
      {
        name: "too many files",
        bytes: makeZip(
          Array.from({ length: ARTIFACT_LIMITS.maxBundleFiles + 1 }, (_, i) => ({ name: `files/${i}.js`, data: Buffer.from("x") })),
          SOURCE_BUNDLE_HEADER,
        ),
        detail: /more than/,
      },
      {
        name: "../ in the manifest",
        bytes: makeZip(
          [
            { name: "files/x.js", data: Buffer.from("x") },
            {
              name: "manifest.json",
              data: Buffer.from(JSON.stringify({ files: { "files/../x.js": { type: "minified_source", url: "~/x.js" } } })),
            },
          ],
          SOURCE_BUNDLE_HEADER,
        ),
        detail: /'\.\.'/,
      },
    ];
    const before = await bundleCount();
    const fileCount = async () => (await store.db.selectFrom("artifact_files").select("id").execute()).length;
    const filesBefore = await fileCount();
    for (const c of cases) {
      const chunks: Buffer[] = [];
      for (let i = 0; i < c.bytes.length; i += ARTIFACT_LIMITS.chunkSize) chunks.push(c.bytes.subarray(i, i + ARTIFACT_LIMITS.chunkSize));
      expect((await uploadChunks(chunks.map((d) => ({ name: sha1(d), data: d })))).status, c.name).toBe(200);
      const answer = await assemble({ checksum: c.checksum ?? sha1(c.bytes), chunks: chunks.map(sha1), projects: ["web"] });
      expect(answer.status, c.name).toBe(200);
      expect(answer.body.state, c.name).toBe("error");
      expect(answer.body.detail, c.name).toMatch(c.detail);
      // A later poll gets the same outcome; the chunks are dropped.
      expect((await assemble({ checksum: c.checksum ?? sha1(c.bytes), chunks: chunks.map(sha1), projects: ["web"] })).body.state).toBe(
        "error",
      );
      expect(await ctx.artifacts.missingChunks(orgId, chunks.map(sha1))).toEqual(chunks.map(sha1));
    }
    expect(await bundleCount()).toBe(before);
    expect(await fileCount()).toBe(filesBefore);
  });

  it("drops chunks no bundle used after a day", async () => {
    const data = Buffer.from("abandoned upload");
    const day = ARTIFACT_LIMITS.chunkTtlMs;
    await ctx.artifacts.putChunks(orgId, [{ checksum: sha1(data), data }], Date.now() - day - 1000);
    expect(await ctx.artifacts.missingChunks(orgId, [sha1(data)])).toEqual([]);
    const fresh = Buffer.from("a fresh chunk");
    expect((await uploadChunks([{ name: sha1(fresh), data: fresh }])).status).toBe(200);
    expect(await ctx.artifacts.missingChunks(orgId, [sha1(data), sha1(fresh)])).toEqual([sha1(data)]);
  });

  it("answers 400 to an assemble request that is not Sentry's shape, or names another organization's or an unknown project", async () => {
    const sum = sha1(Buffer.from("x"));
    expect((await assemble({ checksum: "nope", chunks: [], projects: ["web"] })).status).toBe(400);
    expect((await assemble({ checksum: sum, chunks: [sum], projects: [] })).status).toBe(400);
    expect((await assemble({ checksum: sum, chunks: [sum], projects: ["web"], dist: "d" })).status).toBe(400);
    expect((await assemble({ checksum: sum, chunks: [sum], projects: ["web"], extra: 1 })).status).toBe(400);
    expect(await assemble({ checksum: sum, chunks: [sum], projects: ["ghost"] })).toEqual({
      status: 400,
      body: { detail: "One or more projects are invalid" },
    });
  });
});
