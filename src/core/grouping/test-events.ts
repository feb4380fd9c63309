/** Small builders for hand-made events in the grouping tests (real SDK payloads live in the corpus). */
import type { ExceptionValue, Frame, NormalizedEvent } from "../normalize/types";

export function makeEvent(fields: Partial<NormalizedEvent> = {}): NormalizedEvent {
  return {
    event_id: "0123456789abcdef0123456789abcdef",
    type: "event",
    timestamp: 1_790_000_000,
    received: 1_790_000_000,
    platform: "python",
    level: "error",
    ...fields,
  };
}

export function appFrame(fn: string, fields: Partial<Frame> = {}): Frame {
  return { module: "app.views", filename: "app/views.py", function: fn, lineno: 10, context_line: `${fn}()`, in_app: true, ...fields };
}

export function libFrame(fn: string, fields: Partial<Frame> = {}): Frame {
  return { module: "lib.core", filename: "lib/core.py", function: fn, lineno: 99, context_line: `${fn}()`, in_app: false, ...fields };
}

export function exception(
  type: string | undefined,
  value: string | undefined,
  frames?: Frame[],
  fields: Partial<ExceptionValue> = {},
): ExceptionValue {
  return {
    ...(type !== undefined ? { type } : {}),
    ...(value !== undefined ? { value } : {}),
    ...(frames ? { stacktrace: { frames } } : {}),
    ...fields,
  };
}

/** An event with one exception. */
export function errorEvent(type: string, value: string, frames?: Frame[], fields: Partial<NormalizedEvent> = {}): NormalizedEvent {
  return makeEvent({ exception: { values: [exception(type, value, frames)] }, ...fields });
}

/** An event with only a message. */
export function messageEvent(formatted: string, fields: Partial<NormalizedEvent> = {}): NormalizedEvent {
  return makeEvent({ logentry: { formatted }, level: "info", ...fields });
}
