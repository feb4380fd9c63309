import type { Enricher, EnrichmentCache } from "../digest/enrich/enricher";
import type { ExceptionValue, Frame, NormalizedEvent, ProcessingError, Stacktrace, Thread } from "../normalize/types";
import type { ArtifactFile, ArtifactStore } from "../ports/artifacts";
import { findByDebugId, findByUrl } from "./lookup";
import { LocalMapResolver, type MapResolver, type PositionAnswer, type ResolveAnswer } from "./resolver";

/** Frames of one event resolved at most; the rest stay as they came. */
const MAX_FRAMES = 250;
/**
 * How long "no map for this file" is remembered per project and bundle generation: frames no
 * bundle holds then cost no lookup each, and an upload, which starts a new generation, is used at once.
 */
const MISS_TTL_MS = 60_000;
/** Projects whose bundle generation is kept between batches at most; the next batch reads them again anyway. */
const MAX_PROJECTS = 10_000;
/** Sentry's JavaScript SDKs cut a long context line short and mark the cut with this. */
const SNIPPED = "{snip}";
const LONG_LINE = 500;
const NONE = "none";

type Artifacts = Pick<ArtifactStore, "byDebugId" | "byUrl" | "content" | "bundleGenerations">;

/** Why a frame was left as it came: Sentry's processing-error types for JavaScript. */
type Why = "js_no_source" | "js_invalid_source" | "js_invalid_sourcemap_location" | "js_missing_sources_content";

const JS_FRAME = /\.(?:m|c)?jsx?(?:[?#].*)?$/i;

function isMinifiedCandidate(frame: Frame): boolean {
  if (!frame.abs_path || frame.lineno === undefined || frame.colno === undefined) return false;
  if (frame.platform && frame.platform !== "javascript" && frame.platform !== "node") return false;
  return JS_FRAME.test(frame.abs_path) || frame.abs_path.startsWith("app://");
}

/** `webpack://app/./src/x.ts` → `src/x.ts`; `turbopack:///[project]/app/x.tsx` → `app/x.tsx`; `../src/x.ts` and `./src/x.ts` → `src/x.ts`: the path a person reads. */
export function displayPath(source: string): string {
  let path = source.replace(/^webpack:\/\/[^/]*\//, "").replace(/^[a-z]+:\/\/\/?/i, "");
  // Turbopack: `turbopack:///[project]/app/page.tsx`.
  path = path.replace(/^\[project\]\//, "");
  // webpack's `webpack:///./src/x.js`, and `/./src/x.js` as its Sentry plugin uploads it: `src/x.js`, as esbuild's.
  path = path.replace(/^\/?\.\//, "");
  while (path.startsWith("../")) path = path.slice(3);
  return path;
}

/**
 * Whether a frame we found no map for is worth a "no source map" error: it is minified-looking (no
 * source context, or a line too long to read or cut short), or a build claims it (a debug id, or
 * an uploaded file at its URL). A Node frame of plain `.mjs`/`.js` with its line of code is read
 * as it is: no map is expected and none is missing.
 */
function wantsMap(frame: Frame, claimed: boolean): boolean {
  if (claimed) return true;
  const line = frame.context_line;
  return line === undefined || line.length > LONG_LINE || line.includes(SNIPPED);
}

function noSource(absPath: string, debugId: string | undefined, release: string | undefined): { type: Why; value: string } {
  const how = debugId ? `debug id ${debugId}` : release ? `release ${release}` : "no debug id and no release";
  return { type: "js_no_source", value: `no source map uploaded for ${absPath} (${how})` };
}

/** A frame no map was found for, remembered: until when, and whether an uploaded file is at its URL. */
interface Miss {
  until: number;
  claimed: boolean;
}

interface Resolution {
  frame?: Frame;
  why?: { type: Why; value: string };
}

/** The frame as the map places it in the original source. */
function resolvedFrame(frame: Frame, at: Exclude<PositionAnswer, { unmapped: true }>): Frame {
  const name = at.name ?? frame.function;
  const resolved: Frame = {
    ...frame,
    abs_path: at.source,
    filename: displayPath(at.source),
    lineno: at.line,
    colno: at.column + 1,
    ...(name !== undefined ? { function: name } : {}),
    in_app: !/(^|\/)node_modules\/|webpack\/bootstrap/.test(at.source),
    ...(at.context ? { pre_context: at.context.pre, context_line: at.context.line, post_context: at.context.post } : {}),
  };
  delete resolved.module;
  return resolved;
}

/**
 * Resolves minified JavaScript frames through uploaded source maps: by the debug id
 * `debug_meta.images` gives the frame's file, else by the event's release and dist and the
 * frame's URL. A resolved frame gets the original file, line, column, source context and the
 * name of the function that encloses it in the original code; the event keeps the minified
 * stack as `raw_stacktrace`. A frame without a usable map stays as it came, and the event
 * carries a processing error saying why. Decoding and positions are the resolver's
 * (resolver.ts): in this thread by default, in a thread of its own in production, where a
 * large map decodes without holding other events up.
 */
export function sourceMapEnricher(
  artifacts: Artifacts,
  now: () => number = Date.now,
  resolver: MapResolver = new LocalMapResolver(),
): Enricher {
  const store = { artifacts };
  /**
   * Each project's bundle generation as the latest batch read it (`idleProjects`, decision 0041),
   * NONE without bundles: misses are remembered per generation, so no upload waits for them to expire.
   */
  const generations = new Map<number, string>();
  /**
   * Maps whose text is on its way to the resolver, by file id: a second event needing the same
   * map while the first one's text is read and decoded waits for that instead of sending it again.
   */
  const warming = new Map<number, Promise<unknown>>();

  const text = async (file: ArtifactFile) =>
    // A file deleted since the lookup reads as empty: its map then does not parse, and says so.
    ((await artifacts.content(file.id)) ?? Buffer.alloc(0)).toString("utf8");

  /** Asks the resolver, sending the files' text only when it does not hold them. */
  async function ask(
    mapFile: ArtifactFile,
    minified: ArtifactFile | null,
    positions: { line: number; column: number }[],
  ): Promise<ResolveAnswer> {
    const pending = warming.get(mapFile.id);
    if (pending) await pending.catch(() => undefined);
    const request = { map: { key: String(mapFile.id) }, minified: minified ? { key: String(minified.id) } : null, positions };
    const first = await resolver.resolve(request);
    if (!("need" in first)) return first;
    const send = (async () => {
      const [mapText, minifiedText] = await Promise.all([
        first.need.includes("map") ? text(mapFile) : undefined,
        minified && first.need.includes("minified") ? text(minified) : undefined,
      ]);
      return resolver.resolve({
        map: { ...request.map, ...(mapText !== undefined ? { text: mapText } : {}) },
        minified: request.minified && { ...request.minified, ...(minifiedText !== undefined ? { text: minifiedText } : {}) },
        positions,
      });
    })();
    warming.set(mapFile.id, send);
    try {
      return await send;
    } finally {
      if (warming.get(mapFile.id) === send) warming.delete(mapFile.id);
    }
  }

  async function resolveFrame(
    frame: Frame,
    event: NormalizedEvent,
    projectId: number,
    debugIds: ReadonlyMap<string, string>,
    cache: EnrichmentCache,
    generation: string,
  ): Promise<Resolution> {
    const absPath = frame.abs_path!;
    const debugId = debugIds.get(absPath);
    const missKey = `miss:${generation}\u0000${debugId ?? ""}\u0000${event.release ?? ""}\u0000${event.dist ?? ""}\u0000${absPath}`;
    const missed = cache.get(missKey) as Miss | undefined;
    const miss = (claimed: boolean): Resolution =>
      wantsMap(frame, claimed || debugId !== undefined) ? { why: noSource(absPath, debugId, event.release) } : {};
    if (missed !== undefined && missed.until > now()) return miss(missed.claimed);
    let minified: ArtifactFile | null = null;
    let mapFile: ArtifactFile | null = null;
    if (debugId) ({ minified, sourceMap: mapFile } = await findByDebugId(store, projectId, debugId));
    if (!mapFile && event.release) {
      const byUrl = await findByUrl(store, projectId, event.release, event.dist ?? null, absPath);
      if (byUrl) ({ minified, sourceMap: mapFile } = byUrl);
    }
    if (!mapFile) {
      const claimed = minified !== null;
      cache.set(missKey, { until: now() + MISS_TTL_MS, claimed } satisfies Miss);
      return miss(claimed);
    }
    const answer = await ask(mapFile, minified, [{ line: frame.lineno!, column: frame.colno! }]);
    if ("need" in answer) return { why: { type: "js_invalid_source", value: `the source map ${mapFile.url} could not be read` } };
    if ("invalidMap" in answer)
      return { why: { type: "js_invalid_source", value: `the source map ${mapFile.url} does not parse: ${answer.invalidMap}` } };
    const at = answer.positions[0];
    if (!at || "unmapped" in at)
      return {
        why: {
          type: "js_invalid_sourcemap_location",
          value: `${mapFile.url} maps nothing at line ${frame.lineno}, column ${frame.colno}: is it the map of this build?`,
        },
      };
    const resolved = resolvedFrame(frame, at);
    if (at.context === null)
      return {
        frame: resolved,
        why: { type: "js_missing_sources_content", value: `${mapFile.url} has no sourcesContent for ${displayPath(at.source)}` },
      };
    return { frame: resolved };
  }

  return {
    name: "sourcemaps",
    wants: (event) =>
      [...(event.exception?.values ?? []), ...(event.threads?.values ?? [])].some((v) => v.stacktrace?.frames.some(isMinifiedCandidate)),
    async idleProjects(projectIds) {
      const read = await artifacts.bundleGenerations(projectIds);
      if (generations.size > MAX_PROJECTS) generations.clear();
      for (const id of projectIds) generations.set(id, read.get(id) ?? NONE);
      return new Set(projectIds.filter((id) => !read.has(id)));
    },
    async enrich(event, { projectId, cache, signal }) {
      // Without a batch's reading (an enricher driven directly), the project is read for this event.
      const generation = generations.get(projectId) ?? (await artifacts.bundleGenerations([projectId])).get(projectId) ?? NONE;
      if (generation === NONE) return null;
      const stacks: { holder: ExceptionValue | Thread; stack: Stacktrace }[] = [];
      for (const value of event.exception?.values ?? []) if (value.stacktrace) stacks.push({ holder: value, stack: value.stacktrace });
      for (const thread of event.threads?.values ?? []) if (thread.stacktrace) stacks.push({ holder: thread, stack: thread.stacktrace });
      if (!stacks.some(({ stack }) => stack.frames.some(isMinifiedCandidate))) return null;
      const debugIds = new Map<string, string>();
      for (const image of event.debug_meta?.images ?? [])
        if (image.type === "sourcemap" && typeof image.code_file === "string" && typeof image.debug_id === "string")
          debugIds.set(image.code_file, image.debug_id);
      const errors: ProcessingError[] = [];
      const seen = new Set<string>();
      let budget = MAX_FRAMES;
      let changed = false;
      for (const entry of stacks) {
        const frames: Frame[] = [];
        let resolvedAny = false;
        for (const frame of entry.stack.frames) {
          if (signal.aborted || budget <= 0 || !isMinifiedCandidate(frame)) {
            frames.push(frame);
            continue;
          }
          budget--;
          const { frame: resolved, why } = await resolveFrame(frame, event, projectId, debugIds, cache, generation);
          if (why && !seen.has(why.value)) {
            seen.add(why.value);
            errors.push({ type: why.type, name: "sourcemaps", value: why.value });
          }
          frames.push(resolved ?? frame);
          if (resolved) resolvedAny = true;
        }
        if (resolvedAny) {
          entry.holder.raw_stacktrace = entry.stack;
          entry.holder.stacktrace = { ...entry.stack, frames };
          changed = true;
        }
      }
      if (!changed && errors.length === 0) return null;
      return { ...event, ...(errors.length > 0 ? { errors: [...(event.errors ?? []), ...errors] } : {}) };
    },
  };
}
