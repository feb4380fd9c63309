import { readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { BoundedCache } from "../digest/enrich/cache";
import type { NormalizedEvent } from "../normalize/types";
import type { ArtifactFile, DebugIdMatch } from "../ports/artifacts";
import { displayPath, sourceMapEnricher } from "./symbolicate";

/**
 * Next 16 builds its browser chunks with Turbopack. The fixture is Telltale's own
 * app/debug/client-error/thrower.tsx chunk and its map from `next build`
 * (productionBrowserSourceMaps) after `sentry-cli sourcemaps inject` (test/fixtures/sourcemaps/README.md).
 * Turbopack names sources `turbopack:///[project]/…` and registers a module's exports as
 * anonymous functions in an array (`e.s(["Thrower",0,function(){…}])`), so the function has
 * no name token of its own in the minified file.
 */
const FIXTURES = join(import.meta.dirname, "..", "..", "..", "test", "fixtures", "sourcemaps", "turbopack");
const minified = readFileSync(join(FIXTURES, "thrower.js.txt"), "utf8");
const map = readFileSync(join(FIXTURES, "thrower.js.map"), "utf8");
const DEBUG_ID = "55277597-76ae-5275-b557-decdb3912bde";
const URL_JS = "http://localhost:8000/_next/static/chunks/20mn_py74gkpw.js";

const file = (id: number, url: string, type: string): ArtifactFile => ({
  id,
  bundleId: 1,
  url,
  type,
  debugId: DEBUG_ID,
  sourcemap: null,
  size: 0,
});
const files = [
  { file: file(1, "~/_next/static/chunks/20mn_py74gkpw.js", "minified_source"), data: minified },
  { file: file(2, "~/_next/static/chunks/0dk1ms6veanu-.js.map", "source_map"), data: map },
];
const artifacts = {
  async byDebugId(_projectId: number, debugId: string): Promise<DebugIdMatch> {
    const mine = files.filter((f) => f.file.debugId === debugId).map((f) => f.file);
    return {
      minified: mine.find((f) => f.type === "minified_source") ?? null,
      sourceMap: mine.find((f) => f.type === "source_map") ?? null,
    };
  },
  byUrl: async () => null,
  bundleGenerations: async (ids: readonly number[]) => new Map(ids.map((id) => [id, "1"])),
  content: async (id: number) => Buffer.from(files.find((f) => f.file.id === id)?.data ?? ""),
};

/** Where V8 puts the frame of `throw Error(…)`: the `Error(` call, 1-based, as the browser SDK reports it. */
function throwFrame() {
  const lines = minified.split("\n");
  const line = lines.findIndex((l) => l.includes("deliberate client error"));
  return { lineno: line + 1, colno: lines[line]!.indexOf('Error("Telltale debug') + 1 };
}

describe("symbolication of Next.js Turbopack chunks", () => {
  it("shows a Turbopack source as the project's path, without the turbopack:// scheme and [project] root", () => {
    expect(displayPath("turbopack:///[project]/app/debug/client-error/thrower.tsx")).toBe("app/debug/client-error/thrower.tsx");
    expect(displayPath("turbopack:///[project]/node_modules/next/src/client/app-index.tsx")).toBe(
      "node_modules/next/src/client/app-index.tsx",
    );
  });

  it("names the frame by the exported function around the throw, from the original source", async () => {
    const event: NormalizedEvent = {
      event_id: "0".repeat(32),
      type: "event",
      timestamp: 1_764_000_000,
      received: 1_764_000_000,
      level: "error",
      platform: "javascript",
      exception: {
        values: [
          {
            type: "Error",
            value: "Telltale debug: deliberate client error",
            stacktrace: {
              frames: [
                { abs_path: URL_JS, filename: "/_next/static/chunks/20mn_py74gkpw.js", function: "?", in_app: true, ...throwFrame() },
              ],
            },
          },
        ],
      },
      debug_meta: { images: [{ type: "sourcemap", code_file: URL_JS, debug_id: DEBUG_ID }] },
    };
    const context = { projectId: 1, cache: new BoundedCache(1 << 24).scoped("sourcemaps", 1), signal: new AbortController().signal };
    const out = await sourceMapEnricher(artifacts).enrich(structuredClone(event), context);
    const frame = out!.exception!.values[0]!.stacktrace!.frames[0]!;
    // What already works: the line, the code around it, in-app.
    expect(frame).toMatchObject({
      lineno: 8,
      in_app: true,
      context_line: '  if (broken) throw new Error("Telltale debug: deliberate client error");',
    });
    expect(out!.errors ?? []).toEqual([]);
    expect({ filename: frame.filename, function: frame.function }).toEqual({
      filename: "app/debug/client-error/thrower.tsx",
      function: "Thrower",
    });
  });
});
