/**
 * Breadcrumbs (develop docs: breadcrumbs.mdx): `{values}` or a bare list, oldest → newest, not
 * re-sorted. Only the newest `MAX_COUNT.breadcrumbs` by position are kept — the JS SDK's own
 * default of 100 (PRODUCT.md fact 9) — and the rest are counted.
 */
import { BAGS, MAX_CHARS, MAX_COUNT } from "./limits";
import { trimObject } from "./databag";
import { normalizeLevel } from "./fields";
import { parseTimestamp } from "./timestamps";
import type { Breadcrumb } from "./types";
import { isObject, readString, readValues } from "./values";

function readBreadcrumb(raw: unknown): Breadcrumb | undefined {
  if (!isObject(raw)) return undefined;
  const crumb: Breadcrumb = {
    type: readString(raw.type, MAX_CHARS.enumLike) ?? "default",
    level: normalizeLevel(raw.level) ?? "info",
  };
  const timestamp = parseTimestamp(raw.timestamp);
  if (timestamp !== undefined) crumb.timestamp = timestamp;
  const category = readString(raw.category, MAX_CHARS.summary);
  if (category !== undefined) crumb.category = category;
  const message = readString(raw.message, MAX_CHARS.message);
  if (message !== undefined) crumb.message = message;
  const data = trimObject(raw.data, BAGS.breadcrumbData);
  if (data !== undefined && Object.keys(data).length > 0) crumb.data = data;
  const origin = readString(raw.origin, MAX_CHARS.enumLike);
  if (origin !== undefined) crumb.origin = origin;
  return crumb;
}

export interface NormalizedBreadcrumbs {
  breadcrumbs?: { values: Breadcrumb[] };
  /** Breadcrumbs beyond the cap plus entries that were not objects. */
  dropped: number;
}

export function normalizeBreadcrumbs(raw: unknown): NormalizedBreadcrumbs {
  const list = readValues(raw);
  if (!list) return { dropped: 0 };
  const start = Math.max(0, list.length - MAX_COUNT.breadcrumbs);
  let dropped = start;
  const values: Breadcrumb[] = [];
  for (let i = start; i < list.length; i++) {
    const crumb = readBreadcrumb(list[i]);
    if (crumb) values.push(crumb);
    else dropped++;
  }
  return values.length > 0 ? { breadcrumbs: { values }, dropped } : { dropped };
}
