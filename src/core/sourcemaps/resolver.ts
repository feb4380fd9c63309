import { originalPositionFor, sourceContentFor, TraceMap } from "@jridgewell/trace-mapping";
import { BoundedCache } from "../digest/enrich/cache";
import { enclosingScope, indexScopes, offsetOf, positionOf, type ScopeIndex } from "./scopes";

/**
 * The CPU-heavy half of symbolication: decoding a source map, indexing the functions of its
 * minified file and answering positions in them. It holds what it decoded (bounded by weight)
 * and is given a file's text only when it does not hold it yet, so it can live in a thread of
 * its own (src/server/sourcemap-thread.ts): a 50 MB map then decodes there while the digest
 * goes on with other projects' events. `LocalMapResolver` runs it in the caller's
 * thread (tests, small deployments).
 */

/** Lines of source context on each side of the frame's line, as Sentry shows them. */
const CONTEXT_LINES = 5;
/** A context line longer than this is cut (minified one-liners would otherwise fill the page). */
const MAX_LINE = 300;
/**
 * Minified files longer than this (UTF-16 units) are not indexed for function names (their
 * frames are named by the map's names); past 2 MiB they are indexed from tokens (scopes.ts).
 */
export const MAX_SCOPE_SOURCE = 32 * 1024 * 1024;

/** A file known by a stable key (its artifact id); its text travels only when asked for. */
export interface FileRef {
  key: string;
  text?: string;
}

export interface ResolveRequest {
  map: FileRef;
  /** The minified file the map belongs to, for naming frames by their enclosing function; null when not uploaded. */
  minified: FileRef | null;
  /** Frame positions in the minified file: 1-based line and 1-based column, as SDKs send them. */
  positions: readonly { line: number; column: number }[];
}

export interface SourceContext {
  pre: string[];
  line: string;
  post: string[];
}

export type PositionAnswer =
  | {
      source: string;
      /** 1-based line and 0-based column in the original source. */
      line: number;
      column: number;
      /** The enclosing function's original name, else the mapping's name at the position. */
      name: string | null;
      /** Null when the map carries no `sourcesContent` for the source. */
      context: SourceContext | null;
    }
  | { unmapped: true };

export type ResolveAnswer = { need: ("map" | "minified")[] } | { invalidMap: string } | { positions: PositionAnswer[] };

export interface MapResolver {
  resolve(request: ResolveRequest): Promise<ResolveAnswer>;
}

const cut = (line: string) => (line.length > MAX_LINE ? `${line.slice(0, MAX_LINE)} {snip}` : line);
const LINE_BREAK = /\r\n|\r|\n/;

function contextOf(lines: readonly string[], line: number): SourceContext | null {
  const at = line - 1;
  if (at < 0 || at >= lines.length) return null;
  return {
    pre: lines.slice(Math.max(0, at - CONTEXT_LINES), at).map(cut),
    line: cut(lines[at]!),
    post: lines.slice(at + 1, at + 1 + CONTEXT_LINES).map(cut),
  };
}

/** An identifier written at a 1-based line and 0-based column of a source, if one starts there. */
function identifierAt(lines: readonly string[] | null, line: number, column: number): string | null {
  const text = lines?.[line - 1];
  const match = text === undefined ? null : /^[\p{L}\p{Nl}$_#][\p{L}\p{Nl}\p{Mn}\p{Mc}\p{Nd}\p{Pc}$_]*/u.exec(text.slice(column));
  return match ? match[0] : null;
}

/** A decoded map and its sources split into lines once (context for many frames of one file). */
class DecodedMap {
  private readonly lines = new Map<string, string[] | null>();
  constructor(readonly map: TraceMap) {}

  linesOf(source: string): string[] | null {
    let lines = this.lines.get(source);
    if (lines === undefined) {
      const content = sourceContentFor(this.map, source);
      lines = content === null ? null : content.split(LINE_BREAK);
      this.lines.set(source, lines);
    }
    return lines;
  }
}

/**
 * Answers resolve requests in the calling thread. Decoded maps weigh about three times their
 * text, scope indexes their entries; the cache drops the least recently used past its bound.
 */
export class LocalMapResolver implements MapResolver {
  private readonly cache: BoundedCache;

  constructor(maxWeight = 64 * 1024 * 1024) {
    this.cache = new BoundedCache(maxWeight);
  }

  resolve(request: ResolveRequest): Promise<ResolveAnswer> {
    return Promise.resolve(this.resolveNow(request));
  }

  /** The same, synchronously: the thread entry point calls this. */
  resolveNow({ map, minified, positions }: ResolveRequest): ResolveAnswer {
    const need: ("map" | "minified")[] = [];
    let decoded = this.cache.get(`map:${map.key}`) as DecodedMap | string | undefined;
    if (decoded === undefined) {
      if (map.text === undefined) need.push("map");
      else {
        decoded = decode(map.text);
        this.cache.set(`map:${map.key}`, decoded, typeof decoded === "string" ? 64 : map.text.length * 3);
      }
    }
    let scopes = minified ? (this.cache.get(`scopes:${minified.key}`) as ScopeIndex | null | undefined) : null;
    if (minified && scopes === undefined) {
      if (minified.text === undefined) need.push("minified");
      else {
        scopes = minified.text.length > MAX_SCOPE_SOURCE ? null : indexScopes(minified.text);
        this.cache.set(`scopes:${minified.key}`, scopes, scopes ? scopes.scopes.length * 48 + scopes.lineStarts.length * 8 : 64);
      }
    }
    if (need.length > 0) return { need };
    if (typeof decoded === "string") return { invalidMap: decoded };
    const d = decoded!;
    return { positions: positions.map((p) => answer(d, scopes ?? null, p.line, p.column - 1)) };
  }
}

function decode(text: string): DecodedMap | string {
  try {
    return new DecodedMap(new TraceMap(text));
  } catch (error) {
    return (error instanceof Error ? error.message : String(error)).slice(0, 120);
  }
}

function answer(decoded: DecodedMap, scopes: ScopeIndex | null, line: number, column: number): PositionAnswer {
  const position = originalPositionFor(decoded.map, { line, column });
  if (position.source === null || position.line === null || position.column === null) return { unmapped: true };
  const lines = decoded.linesOf(position.source);
  return {
    source: position.source,
    line: position.line,
    column: position.column,
    name: (scopes && scopeName(decoded, scopes, line, column)) ?? position.name ?? null,
    context: lines === null ? null : contextOf(lines, position.line),
  };
}

/** The original name of the function around a position in the minified file. */
function scopeName(decoded: DecodedMap, index: ScopeIndex, line: number, column: number): string | null {
  const offset = offsetOf(index, line, column);
  if (offset === null) return null;
  const scope = enclosingScope(index, offset);
  if (!scope) return null;
  if (scope.nameAt === null) {
    // An anonymous function in the bundle may have been named in the source: Turbopack registers
    // exports as `e.s(["Thrower", 0, function(){…}])`, from `export function Thrower() {…}`.
    const at = positionOf(index, scope.start);
    const original = originalPositionFor(decoded.map, { line: at.line, column: at.column });
    if (original.source === null || original.line === null || original.column === null) return null;
    const text = decoded.linesOf(original.source)?.[original.line - 1]?.slice(original.column) ?? "";
    return /^(?:async\s+)?function\s*\*?\s*([\p{L}\p{Nl}$_][\p{L}\p{Nl}\p{Mn}\p{Mc}\p{Nd}\p{Pc}$_]*)/u.exec(text)?.[1] ?? null;
  }
  const at = positionOf(index, scope.nameAt);
  const original = originalPositionFor(decoded.map, { line: at.line, column: at.column });
  if (original.name) return original.name;
  if (original.source === null || original.line === null || original.column === null) return null;
  return identifierAt(decoded.linesOf(original.source), original.line, original.column);
}
