/** Read-only views of a normalized event that fingerprint rules, variables and issue fields share. */
import { familyOf, type Family } from "./frames";
import type { ExceptionValue, Frame, NormalizedEvent, Stacktrace } from "../normalize/types";

/** The exception the program saw last: the newest in the chain (the list is oldest → newest). */
export function topException(event: NormalizedEvent): ExceptionValue | undefined {
  const values = event.exception?.values ?? [];
  return values[values.length - 1];
}

/** Every stack trace in the event: exceptions' first, then threads', then the top-level one. */
export function stacktraces(event: NormalizedEvent): Stacktrace[] {
  const out: Stacktrace[] = [];
  for (const e of event.exception?.values ?? []) if (e.stacktrace) out.push(e.stacktrace);
  for (const t of event.threads?.values ?? []) if (t.stacktrace) out.push(t.stacktrace);
  if (event.stacktrace) out.push(event.stacktrace);
  return out;
}

/** The stack the event is about: the top exception's, else the crashed thread's, else the top-level one. */
function mainStacktrace(event: NormalizedEvent): Stacktrace | undefined {
  const top = topException(event)?.stacktrace;
  if (top) return top;
  const threads = event.threads?.values ?? [];
  const thread = threads.find((t) => t.crashed === true && t.stacktrace) ?? threads.find((t) => t.current === true && t.stacktrace);
  return thread?.stacktrace ?? event.stacktrace;
}

/**
 * The "crashing frame": the newest in-app frame of the main stack, else its newest frame (Sentry
 * docs, fingerprint variables: "the application code's topmost frame").
 */
export function crashFrame(event: NormalizedEvent): Frame | undefined {
  const frames = mainStacktrace(event)?.frames ?? [];
  for (let i = frames.length - 1; i >= 0; i--) if (frames[i]!.in_app === true) return frames[i];
  return frames[frames.length - 1];
}

export function eventFamily(event: NormalizedEvent): Family {
  return familyOf(event.platform);
}

/**
 * The event's tags as rules see them: the SDK's, then the ones Sentry derives from event fields
 * (`level`, `logger`, `server_name`, …) when the SDK did not set a tag of that name.
 */
export function tagValue(event: NormalizedEvent, key: string): string | undefined {
  for (const [k, v] of event.tags ?? []) if (k === key) return v;
  switch (key) {
    case "level":
      return event.level;
    case "logger":
      return event.logger;
    case "server_name":
      return event.server_name;
    case "environment":
      return event.environment;
    case "release":
      return event.release;
    case "dist":
      return event.dist;
    case "transaction":
      return event.transaction;
    default:
      return undefined;
  }
}

/** The texts `message:` matches: the log message (formatted and template) and every exception value. */
export function messageTexts(event: NormalizedEvent): string[] {
  const out: string[] = [];
  if (event.logentry) {
    out.push(event.logentry.formatted);
    if (event.logentry.message !== undefined && event.logentry.message !== event.logentry.formatted) out.push(event.logentry.message);
  }
  for (const e of event.exception?.values ?? []) if (e.value !== undefined) out.push(e.value);
  return out;
}
