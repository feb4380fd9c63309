import { isoOrUndefined, isoText } from "@/src/core/time-text";

/**
 * Dates as the issue pages show them: how long ago ("16s ago", "3d ago"), with the exact UTC
 * time for a tooltip. One place for it, so that settings pages do not print raw ISO strings.
 */
export function ago(ms: number, now: number = Date.now()): string {
  // A stored time no Date holds (written before timestamps were bounded) is shown as it is.
  if (isoOrUndefined(ms) === undefined) return isoText(ms);
  const s = Math.max(0, (now - ms) / 1000);
  if (s < 90) return `${Math.round(s)}s ago`;
  if (s < 5400) return `${Math.round(s / 60)}min ago`;
  if (s < 129600) return `${Math.round(s / 3600)}h ago`;
  return `${Math.round(s / 86400)}d ago`;
}

/** "2026-11-23 20:58 UTC": exact, sortable, and with its time zone named. */
export function exactUtc(ms: number): string {
  const iso = isoOrUndefined(ms);
  return iso === undefined ? isoText(ms) : `${iso.slice(0, 16).replace("T", " ")} UTC`;
}
