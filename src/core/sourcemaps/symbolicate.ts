import { originalPositionFor, sourceContentFor, TraceMap } from "@jridgewell/trace-mapping";
import type { Enricher, EnrichmentCache } from "../digest/enrich/enricher";
import type { ExceptionValue, Frame, NormalizedEvent, ProcessingError, Stacktrace, Thread } from "../normalize/types";
import type { ArtifactFile, ArtifactStore } from "../ports/artifacts";
import { findByDebugId, findByUrl } from "./lookup";
import { enclosingScope, indexScopes, offsetOf, positionOf, type ScopeIndex } from "./scopes";

/** Lines of source context on each side of the frame's line, as Sentry shows them. */
const CONTEXT_LINES = 5;
/** A context line longer than this is cut (minified one-liners would otherwise fill the page). */
const MAX_LINE = 300;
/** Frames of one event resolved at most; the rest stay as they came. */
const MAX_FRAMES = 250;
/**
 * How long "no map for this file" is remembered per project: browser events of a project that
 * uploads no maps then cost no lookup per frame, and a map uploaded later is found within it.
 */
const MISS_TTL_MS = 60_000;

type Artifacts = Pick<ArtifactStore, "byDebugId" | "byUrl" | "content" | "projectHasBundles">;

interface DecodedMap {
  map: TraceMap;
}

/** Why a frame was left as it came: Sentry's processing-error types for JavaScript. */
type Why = "js_no_source" | "js_invalid_source" | "js_invalid_sourcemap_location" | "js_missing_sources_content";

const JS_FRAME = /\.(?:m|c)?jsx?(?:[?#].*)?$/i;

function isMinifiedCandidate(frame: Frame): boolean {
  if (!frame.abs_path || frame.lineno === undefined || frame.colno === undefined) return false;
  if (frame.platform && frame.platform !== "javascript" && frame.platform !== "node") return false;
  return JS_FRAME.test(frame.abs_path) || frame.abs_path.startsWith("app://");
}

/** `webpack://app/./src/x.ts` → `./src/x.ts`; `../src/x.ts` → `src/x.ts`: the path a person reads. */
export function displayPath(source: string): string {
  let path = source.replace(/^webpack:\/\/[^/]*\//, "").replace(/^[a-z]+:\/\/\/?/i, "");
  while (path.startsWith("../")) path = path.slice(3);
  return path;
}

const cut = (line: string) => (line.length > MAX_LINE ? `${line.slice(0, MAX_LINE)} {snip}` : line);

function contextOf(content: string | null, line: number): Pick<Frame, "pre_context" | "context_line" | "post_context"> {
  if (content === null) return {};
  const lines = content.split(/\r\n|\r|\n/);
  const at = line - 1;
  if (at < 0 || at >= lines.length) return {};
  return {
    pre_context: lines.slice(Math.max(0, at - CONTEXT_LINES), at).map(cut),
    context_line: cut(lines[at]!),
    post_context: lines.slice(at + 1, at + 1 + CONTEXT_LINES).map(cut),
  };
}

/** An identifier written at a 1-based line and 0-based column of a source, if one starts there. */
function identifierAt(content: string | null, line: number, column: number): string | null {
  if (content === null) return null;
  const text = content.split(/\r\n|\r|\n/)[line - 1];
  const match = text === undefined ? null : /^[\p{L}\p{Nl}$_#][\p{L}\p{Nl}\p{Mn}\p{Mc}\p{Nd}\p{Pc}$_]*/u.exec(text.slice(column));
  return match ? match[0] : null;
}

function noSource(absPath: string, debugId: string | undefined, release: string | undefined): { type: Why; value: string } {
  const how = debugId ? `debug id ${debugId}` : release ? `release ${release}` : "no debug id and no release";
  return { type: "js_no_source", value: `no source map uploaded for ${absPath} (${how})` };
}

interface Resolution {
  frame?: Frame;
  why?: { type: Why; value: string };
}

/**
 * Resolves minified JavaScript frames through uploaded source maps (issue 13): by the debug id
 * `debug_meta.images` gives the frame's file, else by the event's release and dist and the
 * frame's URL. A resolved frame gets the original file, line, column, source context and the
 * name of the function that encloses it in the original code; the event keeps the minified
 * stack as `raw_stacktrace`. A frame without a usable map stays as it came, and the event
 * carries a processing error saying why. Decoded maps and scope indexes are cached (bounded
 * by their size) per project.
 */
export function sourceMapEnricher(artifacts: Artifacts, now: () => number = Date.now): Enricher {
  const store = { artifacts };
  /**
   * Projects known to have no bundles, until when (ms): their events skip enrichment (no copy,
   * no timer, no lookup, no "no source map" error) until a minute after the answer, so a first
   * upload is used within a minute.
   */
  const bare = new Map<number, number>();

  async function load<T>(cache: EnrichmentCache, key: string, make: () => Promise<{ value: T; weight: number }>): Promise<T> {
    const hit = cache.get(key) as { value: T } | undefined;
    if (hit) return hit.value;
    const { value, weight } = await make();
    cache.set(key, { value }, weight);
    return value;
  }

  const text = (cache: EnrichmentCache, file: ArtifactFile) =>
    load(cache, `text:${file.id}`, async () => {
      // A file deleted since the lookup reads as empty: its map then does not parse, and says so.
      const content = ((await artifacts.content(file.id)) ?? Buffer.alloc(0)).toString("utf8");
      return { value: content, weight: content.length * 2 };
    });

  const decoded = (cache: EnrichmentCache, file: ArtifactFile) =>
    load<DecodedMap | Error>(cache, `map:${file.id}`, async () => {
      const raw = await text(cache, file);
      try {
        return { value: { map: new TraceMap(raw) }, weight: raw.length * 3 };
      } catch (error) {
        return { value: error instanceof Error ? error : new Error(String(error)), weight: 64 };
      }
    });

  const scopesOf = (cache: EnrichmentCache, file: ArtifactFile) =>
    load<ScopeIndex | null>(cache, `scopes:${file.id}`, async () => {
      const source = await text(cache, file);
      const index = indexScopes(source);
      return { value: index, weight: index ? index.scopes.length * 48 + index.lineStarts.length * 8 : 64 };
    });

  async function resolveFrame(
    frame: Frame,
    event: NormalizedEvent,
    projectId: number,
    debugIds: ReadonlyMap<string, string>,
    cache: EnrichmentCache,
  ): Promise<Resolution> {
    const absPath = frame.abs_path!;
    const debugId = debugIds.get(absPath);
    const missKey = `miss:${debugId ?? ""}\u0000${event.release ?? ""}\u0000${event.dist ?? ""}\u0000${absPath}`;
    const missed = cache.get(missKey) as number | undefined;
    if (missed !== undefined && missed > now()) return { why: noSource(absPath, debugId, event.release) };
    let minified: ArtifactFile | null = null;
    let mapFile: ArtifactFile | null = null;
    if (debugId) ({ minified, sourceMap: mapFile } = await findByDebugId(store, projectId, debugId));
    if (!mapFile && event.release) {
      const byUrl = await findByUrl(store, projectId, event.release, event.dist ?? null, absPath);
      if (byUrl) ({ minified, sourceMap: mapFile } = byUrl);
    }
    if (!mapFile) {
      cache.set(missKey, now() + MISS_TTL_MS);
      return { why: noSource(absPath, debugId, event.release) };
    }
    const map = await decoded(cache, mapFile);
    if (map instanceof Error)
      return { why: { type: "js_invalid_source", value: `the source map ${mapFile.url} does not parse: ${map.message.slice(0, 120)}` } };
    const position = originalPositionFor(map.map, { line: frame.lineno!, column: frame.colno! - 1 });
    if (position.source === null || position.line === null || position.column === null)
      return {
        why: {
          type: "js_invalid_sourcemap_location",
          value: `${mapFile.url} maps nothing at line ${frame.lineno}, column ${frame.colno}: is it the map of this build?`,
        },
      };
    const content = sourceContentFor(map.map, position.source);
    const name = (minified && (await scopeName(cache, minified, map.map, frame))) ?? position.name ?? frame.function;
    const resolved: Frame = {
      ...frame,
      abs_path: position.source,
      filename: displayPath(position.source),
      lineno: position.line,
      colno: position.column + 1,
      ...(name !== undefined ? { function: name } : {}),
      in_app: !/(^|\/)node_modules\/|webpack\/bootstrap/.test(position.source),
      ...contextOf(content, position.line),
    };
    delete resolved.module;
    if (content === null)
      return {
        frame: resolved,
        why: { type: "js_missing_sources_content", value: `${mapFile.url} has no sourcesContent for ${displayPath(position.source)}` },
      };
    return { frame: resolved };
  }

  /** The original name of the function around the frame's position in the minified file. */
  async function scopeName(cache: EnrichmentCache, minified: ArtifactFile, map: TraceMap, frame: Frame): Promise<string | null> {
    const index = await scopesOf(cache, minified);
    if (!index) return null;
    const offset = offsetOf(index, frame.lineno!, frame.colno! - 1);
    if (offset === null) return null;
    const scope = enclosingScope(index, offset);
    if (!scope || scope.nameAt === null) return null;
    const at = positionOf(index, scope.nameAt);
    const original = originalPositionFor(map, { line: at.line, column: at.column });
    if (original.name) return original.name;
    if (original.source === null || original.line === null || original.column === null) return null;
    return identifierAt(sourceContentFor(map, original.source), original.line, original.column);
  }

  return {
    name: "sourcemaps",
    wants: (event, projectId) =>
      (bare.get(projectId) ?? 0) <= now() &&
      [...(event.exception?.values ?? []), ...(event.threads?.values ?? [])].some((v) => v.stacktrace?.frames.some(isMinifiedCandidate)),
    async enrich(event, { projectId, cache, signal }) {
      if (!(await artifacts.projectHasBundles(projectId))) {
        if (bare.size > 10_000) bare.clear();
        bare.set(projectId, now() + MISS_TTL_MS);
        return null;
      }
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
          const { frame: resolved, why } = await resolveFrame(frame, event, projectId, debugIds, cache);
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
