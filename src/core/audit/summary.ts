import type { AuditData, AuditValue } from "../ports/audit";

const show = (v: AuditValue | undefined) => (v === undefined || v === null ? "none" : v === true ? "yes" : v === false ? "no" : String(v));

/** An entry's before/after summary as a person reads it: "role: member → admin", one line per field that changed or was set. */
export function changeLines(data: AuditData): string[] {
  const before = data.before ?? {};
  const after = data.after ?? {};
  const keys = [...new Set([...Object.keys(before), ...Object.keys(after)])];
  return keys.flatMap((k) => {
    if (k in before && k in after) return before[k] === after[k] ? [] : [`${k}: ${show(before[k])} → ${show(after[k])}`];
    return [k in after ? `${k}: ${show(after[k])}` : `${k} was ${show(before[k])}`];
  });
}
