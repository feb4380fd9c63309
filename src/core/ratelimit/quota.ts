/**
 * Quotas and the `X-Sentry-Rate-Limits` header (develop.sentry.dev
 * sdk/foundations/transport/rate-limiting; docs/protocol.md#rate-limits):
 * `retry_after:categories:scope:reason_code`, entries joined by ", ", categories by ";",
 * empty categories meaning all of them.
 */
export type QuotaScope = "organization" | "project" | "key";

export interface Quota {
  /** Stable identity of the counter, e.g. `key:12` or `project:3:error`. */
  id: string;
  scope: QuotaScope;
  /** Categories counted against this quota; null means every category. */
  categories: readonly string[] | null;
  limit: number;
  windowSeconds: number;
  reason: string;
}

export interface ActiveLimit {
  retryAfterSeconds: number;
  categories: readonly string[] | null;
  scope: QuotaScope;
  reason: string;
}

export function formatRateLimits(limits: readonly ActiveLimit[]): string {
  return limits
    .map((l) => `${Math.max(1, Math.ceil(l.retryAfterSeconds))}:${(l.categories ?? []).join(";")}:${l.scope}:${l.reason}`)
    .join(", ");
}

/** The longest retry among limits: the `Retry-After` of a 429. */
export function retryAfterOf(limits: readonly ActiveLimit[]): number {
  return Math.max(1, ...limits.map((l) => Math.ceil(l.retryAfterSeconds)));
}

/** `category:count/seconds` pairs, comma-separated: the global quota setting's syntax. */
export function parseQuotaList(text: string, scope: QuotaScope, idPrefix: string): Quota[] {
  const quotas: Quota[] = [];
  for (const part of text
    .split(",")
    .map((p) => p.trim())
    .filter(Boolean)) {
    const m = /^([a-z_]+|\*):(\d+)\/(\d+)$/.exec(part);
    if (!m) throw new Error(`invalid quota '${part}': expected category:count/seconds, e.g. error:1000/60`);
    const [, category, count, window] = m;
    quotas.push({
      id: `${idPrefix}:${category}`,
      scope,
      categories: category === "*" ? null : [category!],
      limit: Number(count),
      windowSeconds: Math.max(1, Number(window)),
      reason: `${scope}_quota`,
    });
  }
  return quotas;
}
