import { storableText } from "../normalize/values";
import type { OutcomeCount, OutcomeStore } from "../ports/outcomes";

/**
 * Sentry's outcomes: what became of every item. Nothing is dropped silently (CONTRIBUTING.md):
 * each accepted, filtered, rate-limited, too large or invalid item is counted by project,
 * category, reason and hour; the SDKs' own client reports are merged in as `client_discard`.
 */
export type { Outcome, OutcomeCount } from "../ports/outcomes";

/** Counts summed into the hour that contains them, one per project, hour, category, outcome and reason. */
export interface HourlyOutcome {
  projectId: number;
  hour: number;
  category: string;
  outcome: OutcomeCount["outcome"];
  reason: string;
  quantity: number;
}

const HOUR = 3_600_000;

/** Sums counts that share a key (PostgreSQL refuses duplicates in one upsert); drops empty ones. */
export function hourlyOutcomes(counts: readonly OutcomeCount[]): HourlyOutcome[] {
  const rows = new Map<string, HourlyOutcome>();
  for (const c of counts) {
    if (c.quantity <= 0) continue;
    const hour = Math.floor(c.at / HOUR) * HOUR;
    // Client reports put the SDK's text here: made storable (as every column the digest writes)
    // before keying, so two texts that differ only by a NUL are summed, not sent twice.
    const category = storableText(c.category);
    const reason = storableText(c.reason.slice(0, 100));
    const key = JSON.stringify([c.projectId, hour, category, c.outcome, reason]);
    const row = rows.get(key);
    if (row) row.quantity += c.quantity;
    else rows.set(key, { projectId: c.projectId, hour, category, outcome: c.outcome, reason, quantity: c.quantity });
  }
  return [...rows.values()];
}

/**
 * Buffers outcomes of the request path in memory and writes them once a second, so a
 * rejected request costs no database write. Bounded: past `maxKeys` distinct keys it
 * writes at once.
 */
export class OutcomeBuffer {
  private pending: OutcomeCount[] = [];
  private timer: NodeJS.Timeout | null = null;
  private flushing: Promise<void> = Promise.resolve();

  constructor(
    private readonly store: OutcomeStore,
    private readonly onError: (error: unknown) => void,
    private readonly intervalMs = 1000,
    private readonly maxPending = 10_000,
  ) {}

  add(count: OutcomeCount): void {
    this.pending.push(count);
    if (this.pending.length >= this.maxPending) void this.flush();
    else if (!this.timer) {
      this.timer = setTimeout(() => void this.flush(), this.intervalMs);
      this.timer.unref();
    }
  }

  flush(): Promise<void> {
    if (this.timer) clearTimeout(this.timer);
    this.timer = null;
    const batch = this.pending;
    this.pending = [];
    this.flushing = this.flushing.then(() => (batch.length ? this.store.record(batch).catch(this.onError) : undefined));
    return this.flushing;
  }
}
