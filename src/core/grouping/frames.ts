/**
 * One stack frame's part of the hash (Sentry newstyle `frame`, docs/protocol.md#grouping, and the develop
 * docs' "Stack Traces"): module, else normalized file name; function; and the source line for
 * platforms whose SDKs send it. Line and column numbers move with every unrelated edit, so they
 * count only when a frame has neither a function nor a source line (minified anonymous code).
 *
 * Frames left out entirely: not in app (in the app variant), native/eval placeholders such as
 * `<anonymous>` and `[native code]` (browsers disagree about showing them), direct recursion.
 */
import { component, ignored, parent } from "./component";
import { GROUPING_LIMITS } from "./limits";
import { groupingFilename, groupingModule, isPlaceholderFile } from "./paths";
import type { GroupingComponent } from "./types";
import type { Frame } from "../normalize/types";

export type Family = "javascript" | "native" | "other";

const JS_PLATFORMS = new Set(["javascript", "node"]);
const NATIVE_PLATFORMS = new Set(["native", "c", "cocoa", "objc", "swift"]);
/** Sentry's `contextline_platforms`: SDKs that send the source line (docs/protocol.md#grouping). */
const CONTEXT_LINE_PLATFORMS = new Set(["javascript", "node", "python", "php", "ruby"]);

export function familyOf(platform: string | undefined): Family {
  if (platform !== undefined && JS_PLATFORMS.has(platform)) return "javascript";
  if (platform !== undefined && NATIVE_PLATFORMS.has(platform)) return "native";
  return "other";
}

/** Function names that say "anonymous" in the words of some runtime. */
const ANONYMOUS = new Set(["?", "<anonymous>", "<anonymous function>", "anonymous", "anonymous function", "<unknown>", "<none>"]);

/**
 * A function name as grouping sees it, or undefined for an anonymous one. For JavaScript the
 * receiver prefix is dropped (`Object.handleClick`, `HTMLButtonElement.onClick` and `handleClick`
 * are one function to V8, SpiderMonkey and JSC alike), as are `async `/`new ` and V8's
 * ` [as alias]`, and Firefox's `/<` suffixes for nested anonymous functions.
 */
export function groupingFunction(name: string | undefined, family: Family): string | undefined {
  if (name === undefined) return undefined;
  let fn = name.trim();
  if (family === "javascript") {
    const alias = fn.indexOf(" [as ");
    if (alias !== -1) fn = fn.slice(0, alias);
    for (const prefix of ["async ", "new "]) if (fn.startsWith(prefix)) fn = fn.slice(prefix.length);
    while (fn.endsWith("/<") || fn.endsWith("<")) fn = fn.slice(0, fn.endsWith("/<") ? -2 : -1);
    if (fn.endsWith("/")) fn = fn.slice(0, -1);
    if (!ANONYMOUS.has(fn.toLowerCase())) {
      const dot = fn.lastIndexOf(".");
      if (dot !== -1 && dot < fn.length - 1) fn = fn.slice(dot + 1);
    }
  }
  fn = fn.trim();
  return fn === "" || ANONYMOUS.has(fn.toLowerCase()) ? undefined : fn;
}

/** Whitespace runs collapsed to one space, trimmed (one character class: no backtracking). */
function collapseWhitespace(line: string): string {
  return line.replace(/\s+/g, " ").trim();
}

function sameFrame(a: Frame, b: Frame): boolean {
  return (
    a.abs_path === b.abs_path &&
    a.filename === b.filename &&
    a.module === b.module &&
    a.package === b.package &&
    a.function === b.function &&
    a.lineno === b.lineno &&
    a.colno === b.colno
  );
}

export interface FrameContext {
  /** The event's platform; a frame's own `platform` wins. */
  platform: string;
  /** In the app variant, frames not marked `in_app` do not contribute. */
  appOnly: boolean;
  previous: Frame | undefined;
}

/** Whether the frame is left out whole, and why. */
function frameExclusion(frame: Frame, family: Family, ctx: FrameContext): string | null {
  if (ctx.appOnly && frame.in_app !== true) return "non app frame";
  if (isPlaceholderFile(frame.abs_path) || isPlaceholderFile(frame.filename)) return "ignored: native or eval code has no stable location";
  if (family === "javascript" && frame.function === "eval") return "ignored: eval frame";
  if (ctx.previous !== undefined && sameFrame(frame, ctx.previous)) return "ignored due to recursion";
  return null;
}

/**
 * A frame's parts (module or file name, function, source line, line number) with their hints:
 * they do not depend on the variant, so one event's app and system trees share them (nothing
 * changes a part once it is built). `cache` is per event.
 */
function frameParts(frame: Frame, platform: string, family: Family): GroupingComponent[] {
  const parts: GroupingComponent[] = [];

  const path = frame.filename ?? frame.abs_path;
  if (frame.module !== undefined) parts.push(component("module", [groupingModule(frame.module)]));
  if (path !== undefined) {
    const name = groupingFilename(path);
    const node = component("filename", name === "" ? [] : [name]);
    if (frame.module !== undefined) ignored(node, "module takes precedence");
    else if (name !== "" && name !== path) node.hint = `normalized from ${path}`;
    parts.push(node);
  }

  const fn = groupingFunction(frame.function, family);
  if (frame.function !== undefined) {
    const node = component("function", fn === undefined ? [frame.function] : [fn]);
    if (fn === undefined) ignored(node, "anonymous function");
    else if (fn !== frame.function) node.hint = `normalized from ${frame.function}`;
    parts.push(node);
  }

  let hasLine = false;
  if (frame.context_line !== undefined) {
    const line = collapseWhitespace(frame.context_line);
    const node = component("context-line", line === "" ? [] : [line]);
    if (!CONTEXT_LINE_PLATFORMS.has(platform)) ignored(node, "source lines are not used for this platform");
    else if (line.length > GROUPING_LIMITS.contextLineChars) ignored(node, "ignored because the line is too long");
    hasLine = node.contributes;
    parts.push(node);
  }

  if (frame.lineno !== undefined) {
    const position = family === "javascript" && frame.colno !== undefined ? `${frame.lineno}:${frame.colno}` : `${frame.lineno}`;
    const node = component("lineno", [position]);
    if (fn !== undefined || hasLine) ignored(node, "line numbers change with unrelated edits");
    else node.hint = "used because the frame has no function name or source line";
    parts.push(node);
  }
  return parts;
}

/** Parts already built for an event's frames, shared by its variants' trees. */
export type FramePartsCache = Map<Frame, GroupingComponent[]>;

/**
 * Parts built for earlier events, by what they are made of: the events of one issue repeat
 * the same frames, and building a frame's parts (file name rules, function normalization)
 * was a third of grouping's cost. Parts are never changed once built, so events share them.
 * Bounded: emptied when full, which costs only rebuilding.
 */
const recentParts = new Map<string, GroupingComponent[]>();
const RECENT_PARTS_MAX = 4096;
/** Frames whose source line is longer than this are not remembered (the key would be as long). */
const RECENT_KEY_MAX_LINE = 400;

/** A text and its length, so that no text can run into the next part of a key. */
const sized = (text: string | undefined) => (text === undefined ? "-" : `${text.length}:${text}`);

/** An unambiguous key: every text part carries its length. */
function partsKey(frame: Frame, platform: string): string | null {
  if (frame.context_line !== undefined && frame.context_line.length > RECENT_KEY_MAX_LINE) return null;
  return `${sized(platform)}${sized(frame.module)}${sized(frame.filename ?? frame.abs_path)}${sized(frame.function)}${sized(frame.context_line)}${frame.lineno}|${frame.colno}`;
}

/** A frame's parts: from this event's cache, else from recent events', else built. */
function partsOf(frame: Frame, platform: string, family: Family, cache: FramePartsCache | undefined): GroupingComponent[] {
  let parts = cache?.get(frame);
  if (parts) return parts;
  const key = partsKey(frame, platform);
  parts = key === null ? undefined : recentParts.get(key);
  if (!parts) {
    parts = frameParts(frame, platform, family);
    if (key !== null) {
      if (recentParts.size >= RECENT_PARTS_MAX) recentParts.clear();
      recentParts.set(key, parts);
    }
  }
  cache?.set(frame, parts);
  return parts;
}

export function frameComponent(frame: Frame, ctx: FrameContext, cache?: FramePartsCache): GroupingComponent {
  const platform = frame.platform ?? ctx.platform;
  const family = familyOf(platform);
  const parts = partsOf(frame, platform, family, cache);
  const node = parent("frame", parts);
  const exclusion = frameExclusion(frame, family, ctx);
  if (exclusion !== null) ignored(node, exclusion);
  return node;
}
