import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { OWN_MAPS_LIMITS } from "../core/selfmon/own-maps";
import { nextBuild } from "./own-maps";

const ID_A = "55277597-76ae-5275-b557-decdb3912bde";
const ID_C = "8d0eafb8-0e3c-5783-b790-4a29cf7675ad";

/** A `.next` as `next build` and `sentry-cli sourcemaps inject` leave it. */
describe("nextBuild", () => {
  let dir: string;
  beforeAll(() => {
    dir = mkdtempSync(join(tmpdir(), "telltale-own-maps-"));
    const chunks = join(dir, ".next", "static", "chunks");
    mkdirSync(chunks, { recursive: true });
    mkdirSync(join(dir, ".next", "static", "Bx1"));
    writeFileSync(join(dir, ".next", "BUILD_ID"), "Bx1\n");
    const injected = (body: string, map: string | null, id: string) =>
      `${body}\n${map ? `//# sourceMappingURL=${map}\n` : ""}//# debugId=${id}\n`;
    // Turbopack names a chunk and its map apart: the comment says which is which.
    writeFileSync(join(chunks, "a.js"), injected("a()", "m-a.js.map", ID_A));
    writeFileSync(join(chunks, "m-a.js.map"), JSON.stringify({ version: 3, sources: [], mappings: "", debugId: ID_A }));
    writeFileSync(join(chunks, "plain.js"), "b()\n//# sourceMappingURL=plain.js.map\n");
    writeFileSync(join(chunks, "plain.js.map"), "{}");
    writeFileSync(join(chunks, "lost.js"), injected("c()", "lost.js.map", ID_C));
    writeFileSync(join(chunks, "escape.js"), injected("d()", "../../../secret.map", ID_C));
    writeFileSync(join(chunks, "garbled.js"), injected("e()", "%E0%A4%A.map", ID_C));
    writeFileSync(join(dir, "secret.map"), "{}");
    writeFileSync(join(dir, ".next", "static", "Bx1", "_buildManifest.js"), injected("self.__BUILD_MANIFEST={}", null, ID_C));
  });
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it("reads the BUILD_ID and each chunk that carries a debug id, with its map, under the URL the browser loads it from", async () => {
    const build = (await nextBuild(dir))!;
    expect(build.id).toBe("Bx1");
    const read = await build.read(OWN_MAPS_LIMITS);
    if ("over" in read) throw new Error("over the limits");
    expect(read.files.map((f) => [f.url, f.type, f.debugId, f.sourcemap])).toEqual([
      ["~/_next/static/chunks/a.js", "minified_source", ID_A, "m-a.js.map"],
      ["~/_next/static/chunks/m-a.js.map", "source_map", ID_A, null],
    ]);
    expect(read.bytes).toBe(read.files.reduce((n, f) => n + f.data.length, 0));
  });

  it("stops at the limits before reading past them", async () => {
    const build = (await nextBuild(dir))!;
    await expect(build.read({ ...OWN_MAPS_LIMITS, maxBytes: 20 })).resolves.toMatchObject({ over: "bytes", files: 0 });
    await expect(build.read({ ...OWN_MAPS_LIMITS, maxFiles: 1 })).resolves.toMatchObject({ over: "files", files: 0 });
  });

  it("answers null for a directory that was never built", async () => {
    await expect(nextBuild(join(dir, "nowhere"))).resolves.toBeNull();
  });
});
