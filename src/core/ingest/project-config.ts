import type { Ctx } from "../context";
import type { Quota } from "../ratelimit/quota";

/** What the request path needs to know about a DSN key, cached briefly (keys change rarely). */
export interface KeyConfig {
  keyId: number;
  projectId: number;
  active: boolean;
  /** The key's own limit, then the project's per-category quotas. */
  quotas: Quota[];
}

/**
 * Categories a per-key rate limit counts: the ones an SDK sends per occurrence of
 * something (events), not housekeeping such as sessions and client reports.
 */
export const KEY_LIMIT_CATEGORIES = ["error", "default", "security", "transaction", "feedback", "monitor"] as const;

export async function loadKeyConfig(ctx: Ctx, publicKey: string): Promise<KeyConfig | null> {
  const key = await ctx.projectKeys.byPublicKey(publicKey);
  if (!key) return null;
  const projectQuotas = await ctx.projects.quotas(key.project_id);
  const quotas: Quota[] = [];
  if (key.rate_limit_count !== null && key.rate_limit_window_seconds !== null) {
    quotas.push({
      id: `key:${key.id}`,
      scope: "key",
      categories: KEY_LIMIT_CATEGORIES,
      limit: key.rate_limit_count,
      windowSeconds: key.rate_limit_window_seconds,
      reason: "key_quota",
    });
  }
  for (const q of projectQuotas) {
    quotas.push({
      id: `project:${q.project_id}:${q.category}`,
      scope: "project",
      categories: q.category === "*" ? null : [q.category],
      limit: q.limit_count,
      windowSeconds: q.window_seconds,
      reason: "project_quota",
    });
  }
  return { keyId: key.id, projectId: key.project_id, active: key.is_active === 1, quotas };
}

/**
 * Keys by public key for `ttlMs`. A disabled or re-limited key takes effect within the TTL
 * in every process; unknown keys are cached too, so a flood with a bad key costs no queries.
 */
export class KeyCache {
  private readonly entries = new Map<string, { config: KeyConfig | null; expires: number }>();

  constructor(
    private readonly ctx: Ctx,
    private readonly ttlMs = 10_000,
    private readonly maxEntries = 50_000,
  ) {}

  async get(publicKey: string): Promise<KeyConfig | null> {
    const now = this.ctx.now();
    const hit = this.entries.get(publicKey);
    if (hit && hit.expires > now) return hit.config;
    const config = await loadKeyConfig(this.ctx, publicKey);
    if (this.entries.size >= this.maxEntries) this.entries.clear();
    this.entries.set(publicKey, { config, expires: now + this.ttlMs });
    return config;
  }

  invalidate(): void {
    this.entries.clear();
  }
}
