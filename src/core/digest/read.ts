import type { NormalizedEvent } from "../normalize/types";

/** Small readers for attacker-controlled JSON: each returns undefined for the wrong shape. */
export const obj = (v: unknown): v is Record<string, unknown> => typeof v === "object" && v !== null && !Array.isArray(v);
export const str = (v: unknown): string | undefined => (typeof v === "string" && v !== "" ? v : undefined);
export const num = (v: unknown): number | undefined => (typeof v === "number" && Number.isFinite(v) ? v : undefined);

export function readJson(payload: Buffer): unknown {
  try {
    return JSON.parse(payload.toString("utf8"));
  } catch {
    return undefined;
  }
}

/**
 * The one-line title Sentry shows: the outermost exception as `Type: value` (the last in the
 * chain, which SDKs send innermost first), else the message, else a placeholder.
 */
export function eventTitle(event: NormalizedEvent): string {
  const values = event.exception?.values ?? [];
  const top = values[values.length - 1];
  let title: string | undefined;
  if (top) title = top.type && top.value ? `${top.type}: ${top.value}` : (top.type ?? top.value);
  title ??= event.logentry?.formatted ?? event.logentry?.message;
  title ??= event.transaction;
  const line = (title ?? "<unlabeled event>").split("\n")[0] ?? "";
  return line.length > 200 ? `${line.slice(0, 199)}…` : line;
}
