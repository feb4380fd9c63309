/**
 * The stack excerpt of an alert email: the newest event's top exception, its in-app frames from
 * the newest (where it was thrown) down, one line each, as a reader scans a stack trace. An
 * event without in-app frames shows its newest frames instead.
 */
import type { Frame, NormalizedEvent } from "../normalize/types";
import { topException } from "../grouping/event-view";

export const EXCERPT_FRAMES = 5;

/** The stored event's JSON, read as the normalized event it was written as (src/core/normalize). */
export function storedEvent(json: string | null): NormalizedEvent | null {
  if (json === null) return null;
  try {
    const value: unknown = JSON.parse(json);
    return value !== null && typeof value === "object" ? (value as NormalizedEvent) : null;
  } catch {
    return null;
  }
}

function frameLine(f: Frame): string {
  const where = [f.filename ?? f.abs_path ?? f.module ?? "?", f.lineno, f.colno].filter((x) => x !== undefined).join(":");
  return `at ${f.function ?? "?"} (${where})`;
}

export function stackExcerpt(eventJson: string | null, max = EXCERPT_FRAMES): string[] {
  const event = storedEvent(eventJson);
  if (!event) return [];
  const exception = topException(event);
  const frames = [...(exception?.stacktrace?.frames ?? event.stacktrace?.frames ?? [])].reverse();
  const inApp = frames.filter((f) => f.in_app === true);
  const lines = (inApp.length > 0 ? inApp : frames).slice(0, max).map(frameLine);
  if (exception && (exception.type || exception.value)) lines.unshift([exception.type, exception.value].filter(Boolean).join(": "));
  return lines;
}
