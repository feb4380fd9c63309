import { buildSync } from "esbuild";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { BoundedCache } from "../digest/enrich/cache";
import type { Frame, NormalizedEvent } from "../normalize/types";
import type { ArtifactFile, ArtifactStore, DebugIdMatch } from "../ports/artifacts";
import { displayPath, sourceMapEnricher } from "./symbolicate";

/** The original code: what the event page should show instead of the bundle. */
const CHECKOUT = `const assertCardNumber = (card: string) => {
  if (card.length < 4) {
    throw new Error("payment declined");
  }
};

export class Checkout {
  constructor(private readonly total: number) {}

  submitOrder(card: string): string {
    assertCardNumber(card);
    return card.slice(-4);
  }
}

export function startCheckout(total: number, card: string) {
  const checkout = new Checkout(total);
  return checkout.submitOrder(card);
}
`;

const DEBUG_ID = "c0ffee00-1234-4abc-8def-0123456789ab";
const URL_JS = "https://shop.example/static/app.min.js";

/** Stored files of one bundle, looked up as the database would. */
function fakeArtifacts(
  files: { file: ArtifactFile; data: string }[],
): Pick<ArtifactStore, "byDebugId" | "byUrl" | "content" | "bundleGenerations"> & { reads: number } {
  const store = {
    reads: 0,
    async byDebugId(_projectId: number, debugId: string): Promise<DebugIdMatch> {
      const mine = files.filter((f) => f.file.debugId === debugId).map((f) => f.file);
      return {
        minified: mine.find((f) => f.type === "minified_source") ?? null,
        sourceMap: mine.find((f) => f.type === "source_map") ?? null,
      };
    },
    async byUrl(_projectId: number, release: string, _dist: string | null, urls: readonly string[]) {
      if (release !== "1.0") return null;
      for (const url of urls) {
        const hit = files.find((f) => f.file.url === url);
        if (hit) return hit.file;
      }
      return null;
    },
    async bundleGenerations(projectIds: readonly number[]) {
      return new Map(files.length > 0 ? projectIds.map((id) => [id, String(files.length)]) : []);
    },
    async content(fileId: number) {
      store.reads++;
      const hit = files.find((f) => f.file.id === fileId);
      return hit ? Buffer.from(hit.data) : null;
    },
  };
  return store;
}

const file = (id: number, url: string, type: string, extra: Partial<ArtifactFile> = {}): ArtifactFile => ({
  id,
  bundleId: 1,
  url,
  type,
  debugId: null,
  sourcemap: null,
  size: 0,
  ...extra,
});

describe("symbolication through source maps", () => {
  let dir: string;
  let minified = "";
  let map = "";
  /** The minified line and column (1-based) of the `throw`. */
  let at = { lineno: 0, colno: 0 };

  beforeAll(() => {
    dir = mkdtempSync(join(tmpdir(), "telltale-maps-"));
    writeFileSync(join(dir, "checkout.ts"), CHECKOUT);
    const out = buildSync({
      entryPoints: [join(dir, "checkout.ts")],
      bundle: true,
      minify: true,
      sourcemap: "external",
      sourcesContent: true,
      format: "iife",
      globalName: "shop",
      write: false,
      outfile: join(dir, "app.min.js"),
      absWorkingDir: dir,
    });
    minified = out.outputFiles.find((f) => f.path.endsWith(".js"))!.text;
    map = out.outputFiles.find((f) => f.path.endsWith(".map"))!.text;
    const lines = minified.split("\n");
    const line = lines.findIndex((l) => l.includes("payment declined"));
    const throwAt = lines[line]!.lastIndexOf("throw", lines[line]!.indexOf("payment declined"));
    at = { lineno: line + 1, colno: throwAt + 1 };
  });
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  const event = (frames: Frame[], extra: Partial<NormalizedEvent> = {}): NormalizedEvent =>
    ({
      event_id: "0".repeat(32),
      platform: "javascript",
      exception: { values: [{ type: "Error", value: "payment declined", stacktrace: { frames } }] },
      ...extra,
    }) as NormalizedEvent;
  const context = () => ({ projectId: 1, cache: new BoundedCache(1 << 24).scoped("sourcemaps", 1), signal: new AbortController().signal });
  const minifiedFrame = (): Frame => ({
    abs_path: URL_JS,
    filename: "/static/app.min.js",
    function: "o",
    lineno: at.lineno,
    colno: at.colno,
    in_app: true,
  });

  it("resolves a minified frame by debug id to the original file, line, enclosing function and source context", async () => {
    const artifacts = fakeArtifacts([
      { file: file(1, "~/static/app.min.js", "minified_source", { debugId: DEBUG_ID }), data: minified },
      { file: file(2, "~/static/app.min.js.map", "source_map", { debugId: DEBUG_ID }), data: map },
    ]);
    const enricher = sourceMapEnricher(artifacts);
    const input = event([minifiedFrame()], { debug_meta: { images: [{ type: "sourcemap", code_file: URL_JS, debug_id: DEBUG_ID }] } });
    expect(enricher.wants?.(input, 1)).toBe(true);
    const out = await enricher.enrich(structuredClone(input), context());
    const value = out!.exception!.values[0]!;
    const frame = value.stacktrace!.frames[0]!;
    // The minifier renamed the arrow function's variable; the name comes from its scope, mapped back.
    expect(minified).not.toContain("assertCardNumber");
    expect(frame).toMatchObject({ filename: "checkout.ts", lineno: 3, function: "assertCardNumber", in_app: true });
    expect(frame.context_line?.trim()).toBe('throw new Error("payment declined");');
    expect(frame.pre_context?.at(-1)?.trim()).toBe("if (card.length < 4) {");
    expect(frame.post_context?.[0]?.trim()).toBe("}");
    // The minified stack stays as the raw view.
    expect(value.raw_stacktrace!.frames[0]).toMatchObject({ abs_path: URL_JS, lineno: at.lineno, colno: at.colno, function: "o" });
    expect(out!.errors ?? []).toEqual([]);
  });

  it("resolves by release and URL when the build has no debug ids, and caches the decoded map", async () => {
    const artifacts = fakeArtifacts([
      { file: file(1, "~/static/app.min.js", "minified_source", { sourcemap: "app.min.js.map" }), data: minified },
      { file: file(2, "~/static/app.min.js.map", "source_map"), data: map },
    ]);
    const enricher = sourceMapEnricher(artifacts);
    const ctx = context();
    for (let i = 0; i < 3; i++) {
      const out = await enricher.enrich(event([minifiedFrame()], { release: "1.0" }), ctx);
      expect(out!.exception!.values[0]!.stacktrace!.frames[0]).toMatchObject({ filename: "checkout.ts", function: "assertCardNumber" });
    }
    expect(artifacts.reads).toBe(2); // the map and the minified file, once each
  });

  it("leaves the frame as it came and says why: no map, a corrupt map, a map of another build", async () => {
    const elsewhere = fakeArtifacts([{ file: file(9, "~/static/other.min.js", "minified_source"), data: "x" }]);
    const none = await sourceMapEnricher(elsewhere).enrich(event([minifiedFrame()], { release: "1.0" }), context());
    expect(none!.exception!.values[0]!.stacktrace!.frames[0]).toEqual(minifiedFrame());
    expect(none!.errors).toEqual([expect.objectContaining({ type: "js_no_source", value: expect.stringContaining("release 1.0") })]);

    const corrupt = fakeArtifacts([
      { file: file(1, "~/static/app.min.js", "minified_source"), data: minified },
      { file: file(2, "~/static/app.min.js.map", "source_map"), data: "{ not a map" },
    ]);
    const bad = await sourceMapEnricher(corrupt).enrich(event([minifiedFrame()], { release: "1.0" }), context());
    expect(bad!.exception!.values[0]!.stacktrace!.frames[0]).toEqual(minifiedFrame());
    expect(bad!.errors).toEqual([expect.objectContaining({ type: "js_invalid_source" })]);

    const other = fakeArtifacts([
      { file: file(1, "~/static/app.min.js", "minified_source"), data: minified },
      {
        file: file(2, "~/static/app.min.js.map", "source_map"),
        data: JSON.stringify({ version: 3, sources: ["x.ts"], names: [], mappings: "AAAA" }),
      },
    ]);
    const far = { ...minifiedFrame(), lineno: 40, colno: 9000 };
    const mismatched = await sourceMapEnricher(other).enrich(event([far], { release: "1.0" }), context());
    expect(mismatched!.exception!.values[0]!.stacktrace!.frames[0]).toEqual(far);
    expect(mismatched!.errors).toEqual([expect.objectContaining({ type: "js_invalid_sourcemap_location" })]);
  });

  it("wants only events with JavaScript frames that have a line and a column", () => {
    const enricher = sourceMapEnricher(fakeArtifacts([]));
    expect(enricher.wants?.(event([{ abs_path: "/app/views.py", lineno: 3, colno: 1, function: "view" }]), 1)).toBe(false);
    expect(enricher.wants?.(event([{ abs_path: URL_JS, lineno: 1 }]), 1)).toBe(false);
    expect(enricher.wants?.(event([minifiedFrame()]), 1)).toBe(true);
  });

  it("leaves a project without bundles alone for a batch, and uses an upload from the next batch on", async () => {
    const files: { file: ArtifactFile; data: string }[] = [];
    const artifacts = fakeArtifacts(files);
    const enricher = sourceMapEnricher(artifacts, () => 1_000_000);
    const input = event([minifiedFrame()], { release: "1.0" });
    expect(await enricher.idleProjects?.([1, 2])).toEqual(new Set([1, 2]));
    expect(await enricher.enrich(structuredClone(input), context())).toBeNull();
    // A first upload, then a second one for a file the first lacked: each is used by the very next batch.
    files.push({ file: file(1, "~/static/other.min.js", "minified_source"), data: "x" });
    expect(await enricher.idleProjects?.([1])).toEqual(new Set());
    const ctx = context();
    const missed = await enricher.enrich(structuredClone(input), ctx);
    expect(missed!.errors).toEqual([expect.objectContaining({ type: "js_no_source" })]);
    files.push(
      { file: file(2, "~/static/app.min.js", "minified_source", { sourcemap: "app.min.js.map" }), data: minified },
      { file: file(3, "~/static/app.min.js.map", "source_map"), data: map },
    );
    await enricher.idleProjects?.([1]);
    const found = await enricher.enrich(structuredClone(input), ctx);
    expect(found!.exception!.values[0]!.stacktrace!.frames[0]).toMatchObject({ filename: "checkout.ts", function: "assertCardNumber" });
  });

  it("reports no missing map for a Node frame of plain code, only for minified or claimed ones", async () => {
    const artifacts = fakeArtifacts([{ file: file(9, "~/static/other.min.js", "minified_source"), data: "x" }]);
    const plain: Frame = {
      abs_path: "file:///srv/app/server.mjs",
      filename: "/srv/app/server.mjs",
      function: "handle",
      lineno: 12,
      colno: 11,
      context_line: '    throw new Error("payment declined");',
      platform: "node",
    };
    const nodeEvent = event([plain], { platform: "node", release: "1.0" });
    expect(await sourceMapEnricher(artifacts).enrich(structuredClone(nodeEvent), context())).toBeNull();
    const snipped = { ...plain, context_line: '{snip} ...e(t){if(t.length<4)throw new Error("payment declined")} {snip}' };
    const cut = await sourceMapEnricher(artifacts).enrich(event([snipped], { platform: "node", release: "1.0" }), context());
    expect(cut!.errors).toEqual([expect.objectContaining({ type: "js_no_source" })]);
    const images = { images: [{ type: "sourcemap", code_file: plain.abs_path!, debug_id: DEBUG_ID }] };
    const claimed = await sourceMapEnricher(artifacts).enrich(event([plain], { platform: "node", debug_meta: images }), context());
    expect(claimed!.errors).toEqual([expect.objectContaining({ type: "js_no_source", value: expect.stringContaining(DEBUG_ID) })]);
  });

  it("shows original paths as a person reads them", () => {
    expect(displayPath("webpack://shop/./src/checkout.ts")).toBe("src/checkout.ts");
    expect(displayPath("webpack:///./src/checkout.ts")).toBe("src/checkout.ts");
    expect(displayPath("/./src/checkout.ts")).toBe("src/checkout.ts");
    expect(displayPath("turbopack:///[project]/app/debug/thrower.tsx")).toBe("app/debug/thrower.tsx");
    expect(displayPath("/home/ci/app/src/checkout.ts")).toBe("/home/ci/app/src/checkout.ts");
    expect(displayPath("../../src/checkout.ts")).toBe("src/checkout.ts");
    expect(displayPath("checkout.ts")).toBe("checkout.ts");
  });
});
