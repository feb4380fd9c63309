/**
 * The default grouping of `telltale:2026-11-22`, after Sentry's documented order (docs.sentry.io
 * "Issue Grouping"; docs/protocol.md#grouping): the exception chain (each exception's type and in-app stack,
 * its value only where no stack contributes), else the crashed thread's stack, else a top-level
 * stack trace, else the message (its template when it has parameters) with variable parts
 * stripped.
 *
 * An event with frames gets two variants, like Sentry's: `app` (only in-app frames) and `system`
 * (all frames). The app variant decides the hash when at least one in-app frame contributes;
 * otherwise the system variant does ("all frames when none is in-app").
 */
import { component, contributingValues, hashValues, ignored, parent } from "./component";
import { frameComponent, type FramePartsCache } from "./frames";
import { normalizeMessage, trimMessage } from "./parameterize";
import type { GroupingComponent, GroupingVariant } from "./types";
import type { ExceptionValue, LogEntry, NormalizedEvent, Stacktrace, Thread } from "../normalize/types";

/** What one event's variants share: frame parts and normalized exception values. */
interface Shared {
  frames: FramePartsCache;
  values: Map<string, string>;
}

function stacktraceComponent(stacktrace: Stacktrace, platform: string, appOnly: boolean, shared: Shared): GroupingComponent {
  const frames = stacktrace.frames.map((frame, i) =>
    frameComponent(frame, { platform, appOnly, previous: stacktrace.frames[i - 1] }, shared.frames),
  );
  const node = parent("stacktrace", frames);
  if (!node.contributes) {
    const noApp = appOnly && frames.length > 0 && !stacktrace.frames.some((f) => f.in_app === true);
    node.hint = noApp ? "ignored because it contains no in-app frames" : "ignored because no frame contributes";
  }
  return node;
}

function exceptionComponent(exception: ExceptionValue, platform: string, appOnly: boolean, shared: Shared): GroupingComponent {
  const children: GroupingComponent[] = [];
  const stack = exception.stacktrace ? stacktraceComponent(exception.stacktrace, platform, appOnly, shared) : undefined;
  if (exception.type !== undefined) {
    const type = component("type", [exception.type]);
    // develop docs (exception.mdx): a synthetic exception's type is made up by the SDK.
    if (exception.mechanism?.synthetic === true) ignored(type, "ignored because the exception is synthetic");
    children.push(type);
  }
  if (exception.value !== undefined) {
    let normalized = shared.values.get(exception.value);
    if (normalized === undefined) {
      normalized = normalizeMessage(exception.value);
      shared.values.set(exception.value, normalized);
    }
    const value = component("value", normalized === "" ? [] : [normalized]);
    if (stack?.contributes) ignored(value, "ignored because the stack trace takes precedence");
    else if (normalized !== exception.value) value.hint = "stripped event-specific values";
    children.push(value);
  }
  if (stack) children.push(stack);
  return parent("exception", children);
}

function exceptionsComponent(exceptions: readonly ExceptionValue[], platform: string, appOnly: boolean, shared: Shared): GroupingComponent {
  const nodes = exceptions.map((e) => exceptionComponent(e, platform, appOnly, shared));
  if (nodes.length === 1) return nodes[0]!;
  // RFC 0079: an exception group's container says less than the exceptions it holds.
  const hasPlain = exceptions.some((e) => e.mechanism?.is_exception_group !== true);
  exceptions.forEach((e, i) => {
    if (hasPlain && e.mechanism?.is_exception_group === true) ignored(nodes[i]!, "ignored because it is an exception group");
  });
  return parent("chained-exception", nodes);
}

/** The thread to group by: the crashed one, else the current one, else the only one. */
function groupingThread(threads: readonly Thread[]): Thread | undefined {
  const withStack = threads.filter((t) => t.stacktrace !== undefined);
  return (
    withStack.find((t) => t.crashed === true) ??
    withStack.find((t) => t.current === true) ??
    (threads.length === 1 ? withStack[0] : undefined)
  );
}

function hasParams(params: LogEntry["params"]): boolean {
  if (params === undefined) return false;
  return Array.isArray(params) ? params.length > 0 : Object.keys(params).length > 0;
}

function messageComponent(logentry: LogEntry): GroupingComponent {
  // develop docs: "the message without any parameters" first, else the full message.
  const template = logentry.message !== undefined && hasParams(logentry.params) ? logentry.message : undefined;
  const raw = template ?? logentry.formatted;
  const normalized = normalizeMessage(raw);
  const hints: string[] = [];
  if (template !== undefined) hints.push("the message template, without its parameters");
  if (normalized !== trimMessage(raw)) hints.push("stripped event-specific values");
  else if (normalized !== raw) hints.push("first lines only");
  return component("message", normalized === "" ? [] : [normalized], hints.length > 0 ? hints.join("; ") : null);
}

/** The default tree: candidates by priority; the first that contributes wins. */
function defaultTree(event: NormalizedEvent, id: GroupingVariant["id"], appOnly: boolean, shared: Shared): GroupingComponent {
  const candidates: GroupingComponent[] = [];
  const exceptions = event.exception?.values ?? [];
  if (exceptions.length > 0) candidates.push(exceptionsComponent(exceptions, event.platform, appOnly, shared));
  const thread = event.threads ? groupingThread(event.threads.values) : undefined;
  if (thread?.stacktrace) candidates.push(parent("threads", [stacktraceComponent(thread.stacktrace, event.platform, appOnly, shared)]));
  if (event.stacktrace) candidates.push(stacktraceComponent(event.stacktrace, event.platform, appOnly, shared));
  if (event.logentry) candidates.push(messageComponent(event.logentry));

  const winner = candidates.find((c) => c.contributes);
  for (const c of candidates) {
    if (winner !== undefined && c !== winner) ignored(c, `ignored because the ${winner.id} takes precedence`);
  }
  const root = parent(id, candidates);
  if (!root.contributes) root.hint = "nothing to group by";
  return root;
}

function hasFrames(node: GroupingComponent, contributingOnly: boolean): boolean {
  if (contributingOnly && !node.contributes) return false;
  if (node.id === "frame") return true;
  return node.values.some((v) => typeof v !== "string" && hasFrames(v, contributingOnly));
}

function variant(id: GroupingVariant["id"], description: string, tree: GroupingComponent): GroupingVariant {
  return {
    id,
    description,
    contributes: true,
    hint: null,
    hash: tree.contributes ? hashValues(contributingValues(tree)) : null,
    component: tree,
  };
}

export function defaultVariants(event: NormalizedEvent): GroupingVariant[] {
  const shared: Shared = { frames: new Map(), values: new Map() };
  const app = defaultTree(event, "app", true, shared);
  if (!hasFrames(app, false)) {
    const tree = defaultTree(event, "default", false, shared);
    return [variant("default", "default grouping (no stack trace)", tree)];
  }
  const system = defaultTree(event, "system", false, shared);
  const appVariant = variant("app", "in-app frames only", app);
  const systemVariant = variant("system", "all frames", system);
  if (hasFrames(app, true)) {
    systemVariant.contributes = false;
    systemVariant.hint = "not used: the app variant decides; its hash is kept as a second hash";
  } else {
    appVariant.contributes = false;
    appVariant.hint = "ignored because no in-app frame contributes; all frames are used";
  }
  return [appVariant, systemVariant];
}
