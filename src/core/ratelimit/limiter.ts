import type { ActiveLimit, Quota } from "./quota";

interface Window {
  index: number;
  used: number;
  endsAt: number;
}

/**
 * Fixed-window counters, one per quota, held in this process. `consume` admits an item
 * (and counts it against every quota it falls under) or names the quotas that refuse it.
 * Memory is bounded by the number of quotas in use: a quota's counter is one number.
 */
export class RateLimiter {
  private readonly windows = new Map<string, Window>();

  constructor(private readonly now: () => number = Date.now) {}

  consume(quotas: readonly Quota[], category: string, quantity: number): ActiveLimit[] {
    const t = this.now();
    const applicable = quotas.filter((q) => q.categories === null || q.categories.includes(category));
    const refused: ActiveLimit[] = [];
    const windows: Window[] = [];
    for (const q of applicable) {
      const w = this.window(q, t);
      if (q.limit === 0 || w.used + quantity > q.limit) refused.push(this.limitOf(q, t));
      windows.push(w);
    }
    if (refused.length === 0) for (const w of windows) w.used += quantity;
    return refused;
  }

  /** Limits already exhausted for a category, without consuming (for reporting every active limit). */
  active(quotas: readonly Quota[], category: string): ActiveLimit[] {
    const t = this.now();
    return quotas
      .filter((q) => q.categories === null || q.categories.includes(category))
      .filter((q) => q.limit === 0 || this.window(q, t).used >= q.limit)
      .map((q) => this.limitOf(q, t));
  }

  private window(q: Quota, t: number): Window {
    const index = Math.floor(t / (q.windowSeconds * 1000));
    let w = this.windows.get(q.id);
    if (!w || w.index !== index) {
      w = { index, used: 0, endsAt: (index + 1) * q.windowSeconds * 1000 };
      this.windows.set(q.id, w);
      if (this.windows.size > 100_000) this.prune(t);
    }
    return w;
  }

  private limitOf(q: Quota, t: number): ActiveLimit {
    const windowMs = q.windowSeconds * 1000;
    const end = (Math.floor(t / windowMs) + 1) * windowMs;
    return { retryAfterSeconds: (end - t) / 1000, categories: q.categories, scope: q.scope, reason: q.reason };
  }

  private prune(t: number): void {
    // Counters of windows that have ended are worth nothing.
    for (const [id, w] of this.windows) if (w.endsAt <= t) this.windows.delete(id);
  }
}
