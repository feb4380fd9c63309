import type { StoredEvent } from "../../core/issues/queries";
import { storedEventPayload } from "../../core/issues/event-payload";
import { eventTags } from "../../core/issues/event-tags";
import type { Breadcrumb, ExceptionValue, Frame, Pairs, Request, Stacktrace, Thread } from "../../core/normalize/types";
import { isoText } from "../../core/time-text";

/**
 * What the event detail adds beside the stored event: the issue's culprit (Sentry shows it when
 * the event has none) and the issue's neighbouring events.
 */
export interface EventDetail {
  issueCulprit?: string | null;
  previousEventID?: string | null;
  nextEventID?: string | null;
}

/**
 * A frame as Sentry's API spells it (camelCase, `context` as `[lineNo, text]` pairs from the
 * lines before, the line itself and the lines after), which is what API clients read; the
 * stored payload keeps the SDK's snake_case names.
 */
export function apiFrame(f: Frame) {
  const context: [number, string][] = [];
  const at = f.lineno;
  if (at !== undefined) {
    const pre = f.pre_context ?? [];
    pre.forEach((line, i) => context.push([at - pre.length + i, line]));
    if (f.context_line !== undefined) context.push([at, f.context_line]);
    (f.post_context ?? []).forEach((line, i) => context.push([at + 1 + i, line]));
  }
  return {
    filename: f.filename ?? null,
    absPath: f.abs_path ?? null,
    module: f.module ?? null,
    package: f.package ?? null,
    platform: f.platform ?? null,
    instructionAddr: f.instruction_addr ?? null,
    symbolAddr: f.symbol_addr ?? null,
    function: f.function ?? null,
    rawFunction: f.raw_function ?? null,
    symbol: null,
    context,
    lineNo: f.lineno ?? null,
    colNo: f.colno ?? null,
    inApp: f.in_app ?? false,
    trust: null,
    errors: null,
    vars: f.vars ?? null,
  };
}

const apiStacktrace = (s: Stacktrace | undefined) =>
  s
    ? {
        frames: s.frames.map(apiFrame),
        framesOmitted: s.frames_omitted ?? null,
        registers: null,
        hasSystemFrames: s.frames.some((f) => !f.in_app),
      }
    : null;

const apiException = (v: ExceptionValue) => ({
  type: v.type ?? null,
  value: v.value ?? null,
  module: v.module ?? null,
  threadId: v.thread_id ?? null,
  mechanism: v.mechanism ?? null,
  stacktrace: apiStacktrace(v.stacktrace),
  rawStacktrace: apiStacktrace(v.raw_stacktrace),
});

const apiThread = (t: Thread) => ({
  id: t.id ?? null,
  name: t.name ?? null,
  crashed: t.crashed ?? false,
  current: t.current ?? false,
  main: t.main ?? false,
  state: t.state ?? null,
  stacktrace: apiStacktrace(t.stacktrace),
  rawStacktrace: apiStacktrace(t.raw_stacktrace),
});

// Sentry's breadcrumbs entry gives each crumb's time as ISO text, and an `event_id` (null here).
const apiBreadcrumb = (b: Breadcrumb) => ({
  type: b.type,
  category: b.category ?? null,
  level: b.level,
  message: b.message ?? null,
  data: b.data ?? null,
  timestamp: b.timestamp === undefined ? null : isoText(b.timestamp * 1000),
  event_id: null,
});

const apiRequest = (r: Request) => ({
  url: r.url ?? null,
  method: r.method ?? null,
  query: r.query_string ?? ([] as Pairs),
  fragment: r.fragment ?? null,
  data: r.data ?? null,
  headers: r.headers ?? ([] as Pairs),
  cookies: r.cookies ?? ([] as Pairs),
  env: r.env ?? null,
  inferredContentType: r.inferred_content_type ?? null,
});

/** Sentry's event shape (`GET /api/0/projects/{org}/{project}/events/{id}/`), entries included. */
export function serializeEvent(stored: StoredEvent, projectSlug: string, detail: EventDetail = {}) {
  const e = storedEventPayload(stored);
  const entries: { type: string; data: unknown }[] = [];
  if (e.exception) {
    const values = e.exception.values.map(apiException);
    entries.push({
      type: "exception",
      data: { values, hasSystemFrames: values.some((v) => v.stacktrace?.hasSystemFrames), excOmitted: null },
    });
  }
  if (e.stacktrace) entries.push({ type: "stacktrace", data: apiStacktrace(e.stacktrace) });
  if (e.logentry)
    entries.push({
      type: "message",
      data: { formatted: e.logentry.formatted, message: e.logentry.message ?? null, params: e.logentry.params ?? null },
    });
  if (e.breadcrumbs) entries.push({ type: "breadcrumbs", data: { values: e.breadcrumbs.values.map(apiBreadcrumb) } });
  if (e.request) entries.push({ type: "request", data: apiRequest(e.request) });
  if (e.threads) entries.push({ type: "threads", data: { values: e.threads.values.map(apiThread) } });
  return {
    id: e.event_id,
    eventID: e.event_id,
    groupID: stored.issue_id === null ? null : String(stored.issue_id),
    projectID: String(stored.project_id),
    projectSlug,
    title: stored.title,
    message: e.logentry?.formatted ?? "",
    type: e.exception ? "error" : "default",
    platform: e.platform,
    level: e.level,
    logger: e.logger ?? null,
    culprit: e.culprit || detail.issueCulprit || null,
    dateCreated: isoText(e.timestamp * 1000),
    dateReceived: isoText(stored.received_at),
    release: e.release ? { version: e.release } : null,
    dist: e.dist ?? null,
    environment: e.environment ?? null,
    // The SDK's tags with the ones Sentry derives (environment, level, release, user…), as the issue indexes them.
    tags: eventTags(e).map(([key, value]) => ({ key, value })),
    user: e.user ?? null,
    contexts: e.contexts ?? {},
    sdk: e.sdk ?? null,
    fingerprints: stored.grouping_hash ? [stored.grouping_hash] : [],
    entries,
    errors: e.errors ?? [],
    extra: e.extra ?? {},
    packages: e.modules ?? {},
    nextEventID: detail.nextEventID ?? null,
    previousEventID: detail.previousEventID ?? null,
  };
}
