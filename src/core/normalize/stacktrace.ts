/**
 * Exceptions, threads and their stack traces (develop docs: exception.mdx, stacktrace.mdx,
 * threads.mdx). Frames are oldest → newest. A huge stack keeps its first and last frames
 * (Relay's hard limit of 250 frames); beyond 50 frames the middle ones lose `vars` and source
 * context, like Relay's and Sentry's `slim_frame_data`.
 */
import { BAGS, MAX_CHARS, MAX_COUNT } from "./limits";
import { compactJson, trimObject } from "./databag";
import type { ExceptionValue, Frame, Mechanism, Stacktrace, Thread } from "./types";
import {
  cleanString,
  isObject,
  readBool,
  readLenientString,
  readString,
  readStringList,
  readUint,
  readValues,
  type RawObject,
  type Warnings,
} from "./values";

/** The URL path of an absolute URL, or `undefined` for anything else. */
function urlPath(absPath: string): string | undefined {
  const scheme = absPath.indexOf("://");
  if (scheme <= 0 || scheme > 16) return undefined;
  const slash = absPath.indexOf("/", scheme + 3);
  if (slash === -1) return undefined;
  let end = absPath.length;
  for (const stop of ["?", "#"]) {
    const at = absPath.indexOf(stop, slash);
    if (at !== -1 && at < end) end = at;
  }
  const path = absPath.slice(slash, end);
  return path === "/" ? undefined : path;
}

function readFrame(raw: RawObject, withContext: boolean): Frame | undefined {
  const frame: Frame = {};
  let filename = readString(raw.filename, MAX_CHARS.path);
  let absPath = readString(raw.abs_path, MAX_CHARS.path);
  // Relay's `process_non_raw_frame`: each of filename/abs_path stands in for the other, and a
  // URL's path is the friendlier file name.
  if (absPath === undefined) {
    absPath = filename;
    filename = undefined;
  }
  if (filename === undefined && absPath !== undefined) filename = urlPath(absPath) ?? absPath;
  if (filename !== undefined) frame.filename = filename;
  if (absPath !== undefined) frame.abs_path = absPath;

  const fn = readString(raw.function, MAX_CHARS.symbol);
  if (fn !== undefined) frame.function = fn;
  const rawFn = readString(raw.raw_function, MAX_CHARS.symbol);
  if (rawFn !== undefined) frame.raw_function = rawFn;
  const mod = readString(raw.module, MAX_CHARS.symbol);
  if (mod !== undefined) frame.module = mod;
  const pkg = readString(raw.package, MAX_CHARS.path);
  if (pkg !== undefined) frame.package = pkg;
  const platform = readString(raw.platform, MAX_CHARS.enumLike);
  if (platform !== undefined) frame.platform = platform;
  const lineno = readUint(raw.lineno);
  if (lineno !== undefined) frame.lineno = lineno;
  const colno = readUint(raw.colno);
  if (colno !== undefined) frame.colno = colno;
  const inApp = readBool(raw.in_app);
  if (inApp !== undefined) frame.in_app = inApp;
  for (const key of ["instruction_addr", "symbol_addr", "image_addr"] as const) {
    const addr = readLenientString(raw[key], MAX_CHARS.enumLike);
    if (addr !== undefined) frame[key] = addr;
  }

  if (typeof raw.context_line === "string") frame.context_line = cleanString(raw.context_line, MAX_CHARS.summary);
  if (withContext) {
    const pre = readStringList(tail(raw.pre_context), MAX_COUNT.contextLines, MAX_CHARS.summary);
    if (pre && pre.length > 0) frame.pre_context = pre;
    const post = readStringList(raw.post_context, MAX_COUNT.contextLines, MAX_CHARS.summary);
    if (post && post.length > 0) frame.post_context = post;
    const vars = trimObject(raw.vars, BAGS.frameVars);
    if (vars !== undefined) frame.vars = vars;
  }

  // develop docs: a frame needs at least one of filename, function or instruction_addr.
  if (frame.filename === undefined && frame.function === undefined && frame.instruction_addr === undefined && frame.module === undefined) {
    return undefined;
  }
  return frame;
}

/** The last `MAX_COUNT.contextLines` lines: the ones nearest the frame's line. */
function tail(value: unknown): unknown {
  return Array.isArray(value) && value.length > MAX_COUNT.contextLines ? value.slice(-MAX_COUNT.contextLines) : value;
}

/**
 * A bounded stack trace. Frames beyond the hard limit are dropped from the middle, keeping the
 * outermost `framesKeptFromStart` and the newest rest, and the dropped range is recorded.
 */
export function normalizeStacktrace(raw: unknown, warnings: Warnings, where: string): Stacktrace | undefined {
  if (!isObject(raw) || !Array.isArray(raw.frames)) return undefined;
  const frames: unknown[] = raw.frames;
  const total = frames.length;
  const limit = MAX_COUNT.frames;
  const head = total > limit ? MAX_COUNT.framesKeptFromStart : total;
  const tailStart = total > limit ? total - (limit - head) : total;

  const kept = total > limit ? limit : total;
  const contextHead = MAX_COUNT.framesWithContext / 2;
  const out: Frame[] = [];
  let position = 0;
  const take = (index: number): void => {
    const item: unknown = frames[index];
    const withContext = kept <= MAX_COUNT.framesWithContext || position < contextHead || position >= kept - contextHead;
    position++;
    if (!isObject(item)) return;
    const frame = readFrame(item, withContext);
    if (frame) out.push(frame);
  };
  for (let i = 0; i < head; i++) take(i);
  for (let i = tailStart; i < total; i++) take(i);

  const stacktrace: Stacktrace = { frames: out };
  if (total > limit) {
    stacktrace.frames_omitted = [head, tailStart];
    warnings.add(`${where}: ${tailStart - head} of ${total} frames dropped from the middle of the stack`);
  }
  return stacktrace;
}

function readMechanism(raw: unknown): Mechanism | undefined {
  if (!isObject(raw)) return undefined;
  // develop docs: `type` is required; "generic" is what SDKs use for user captures.
  const mechanism: Mechanism = { type: readString(raw.type, MAX_CHARS.enumLike) ?? "generic" };
  for (const key of ["handled", "synthetic", "is_exception_group"] as const) {
    const flag = readBool(raw[key]);
    if (flag !== undefined) mechanism[key] = flag;
  }
  const description = readString(raw.description, MAX_CHARS.summary);
  if (description !== undefined) mechanism.description = description;
  const helpLink = readString(raw.help_link, MAX_CHARS.url);
  if (helpLink !== undefined) mechanism.help_link = helpLink;
  const source = readString(raw.source, MAX_CHARS.enumLike);
  if (source !== undefined) mechanism.source = source;
  for (const key of ["exception_id", "parent_id"] as const) {
    const id = readUint(raw[key]);
    if (id !== undefined) mechanism[key] = id;
  }
  const data = trimObject(raw.data, BAGS.mechanism);
  if (data !== undefined) mechanism.data = data;
  const meta = trimObject(raw.meta, BAGS.mechanism);
  if (meta !== undefined) mechanism.meta = meta;
  return mechanism;
}

function readThreadId(value: unknown): string | number | undefined {
  if (typeof value === "number") return readUint(value);
  return readString(value, MAX_CHARS.enumLike);
}

function readException(raw: RawObject, warnings: Warnings, index: number): ExceptionValue | undefined {
  const exception: ExceptionValue = {};
  const type = readString(raw.type, MAX_CHARS.symbol);
  if (type !== undefined) exception.type = type;
  // Some SDKs send a non-string value (an object or a number); keep it readable.
  const value =
    typeof raw.value === "string" || typeof raw.value === "number" || typeof raw.value === "boolean"
      ? readLenientString(raw.value, MAX_CHARS.message)
      : raw.value !== null && typeof raw.value === "object"
        ? compactJson(raw.value, MAX_CHARS.message)
        : undefined;
  if (value !== undefined) exception.value = value;
  // develop docs: at least one of type and value, else the exception is discarded.
  if (exception.type === undefined && exception.value === undefined) {
    warnings.add(`exception ${index}: neither type nor value; dropped`);
    return undefined;
  }
  const mod = readString(raw.module, MAX_CHARS.symbol);
  if (mod !== undefined) exception.module = mod;
  const threadId = readThreadId(raw.thread_id);
  if (threadId !== undefined) exception.thread_id = threadId;
  const mechanism = readMechanism(raw.mechanism);
  if (mechanism) exception.mechanism = mechanism;
  const stacktrace = normalizeStacktrace(raw.stacktrace, warnings, `exception ${index}`);
  if (stacktrace) exception.stacktrace = stacktrace;
  return exception;
}

/** `exception` as `{values}` or a bare list, oldest → newest; the newest are kept when too many. */
export function normalizeExceptions(raw: unknown, warnings: Warnings): { values: ExceptionValue[] } | undefined {
  const list = readValues(raw);
  if (!list || list.length === 0) return undefined;
  const start = Math.max(0, list.length - MAX_COUNT.exceptions);
  if (start > 0) warnings.add(`exception: ${start} oldest chained exceptions dropped`);
  const values: ExceptionValue[] = [];
  for (let i = start; i < list.length; i++) {
    const item: unknown = list[i];
    if (!isObject(item)) continue;
    const exception = readException(item, warnings, i);
    if (exception) values.push(exception);
  }
  return values.length > 0 ? { values } : undefined;
}

/** `threads` as `{values}` or a bare list. */
export function normalizeThreads(raw: unknown, warnings: Warnings): { values: Thread[] } | undefined {
  const list = readValues(raw);
  if (!list || list.length === 0) return undefined;
  if (list.length > MAX_COUNT.threads) warnings.add(`threads: ${list.length - MAX_COUNT.threads} threads dropped`);
  const values: Thread[] = [];
  for (let i = 0; i < list.length && i < MAX_COUNT.threads; i++) {
    const item: unknown = list[i];
    if (!isObject(item)) continue;
    const thread: Thread = {};
    const id = readThreadId(item.id);
    if (id !== undefined) thread.id = id;
    const name = readString(item.name, MAX_CHARS.enumLike);
    if (name !== undefined) thread.name = name;
    for (const key of ["crashed", "current", "main"] as const) {
      const flag = readBool(item[key]);
      if (flag !== undefined) thread[key] = flag;
    }
    const state = readString(item.state, MAX_CHARS.enumLike);
    if (state !== undefined) thread.state = state;
    const stacktrace = normalizeStacktrace(item.stacktrace, warnings, `thread ${i}`);
    if (stacktrace) thread.stacktrace = stacktrace;
    values.push(thread);
  }
  return values.length > 0 ? { values } : undefined;
}
