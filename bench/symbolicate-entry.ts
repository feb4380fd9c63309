// Bundled by bench/symbolicate.mjs: times the source-map enricher on one event.
import { BoundedCache } from "../src/core/digest/enrich/cache";
import type { Frame, NormalizedEvent } from "../src/core/normalize/types";
import type { ArtifactFile } from "../src/core/ports/artifacts";
import { sourceMapEnricher } from "../src/core/sourcemaps/symbolicate";

export async function measure(input: { minified: string; map: string; frames: Frame[]; runs: number }) {
  const files: { file: ArtifactFile; data: Buffer }[] = [
    {
      file: { id: 1, bundleId: 1, url: "~/app.min.js", type: "minified_source", debugId: null, sourcemap: "app.min.js.map", size: 0 },
      data: Buffer.from(input.minified),
    },
    {
      file: { id: 2, bundleId: 1, url: "~/app.min.js.map", type: "source_map", debugId: null, sourcemap: null, size: 0 },
      data: Buffer.from(input.map),
    },
  ];
  // A new enricher has a new map resolver: nothing decoded yet.
  const newEnricher = () =>
    sourceMapEnricher({
      byDebugId: async () => ({ minified: null, sourceMap: null }),
      byUrl: async (_p, _r, _d, urls) => files.find((f) => urls.includes(f.file.url))?.file ?? null,
      content: async (id) => files.find((f) => f.file.id === id)?.data ?? null,
      bundleGenerations: async (ids) => new Map(ids.map((id) => [id, "1"])),
    });
  const event = (): NormalizedEvent =>
    ({
      event_id: "0".repeat(32),
      platform: "javascript",
      release: "1.0",
      exception: { values: [{ type: "Error", value: "boom", stacktrace: { frames: structuredClone(input.frames) } }] },
    }) as NormalizedEvent;
  const signal = new AbortController().signal;
  const cold: number[] = [];
  const warm: number[] = [];
  let resolved = 0;
  for (let i = 0; i < input.runs; i++) {
    const cache = new BoundedCache(256 * 1024 * 1024).scoped("sourcemaps", 1);
    const enricher = newEnricher();
    let t = performance.now();
    const out = await enricher.enrich(event(), { projectId: 1, cache, signal });
    cold.push(performance.now() - t);
    resolved = out?.exception?.values[0]?.stacktrace?.frames.filter((f) => f.filename?.startsWith("src/")).length ?? 0;
    for (let j = 0; j < 20; j++) {
      t = performance.now();
      await enricher.enrich(event(), { projectId: 1, cache, signal });
      warm.push(performance.now() - t);
    }
  }
  return { cold, warm, resolved };
}
