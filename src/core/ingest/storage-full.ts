/**
 * A full disk (SQLITE_FULL, PostgreSQL's disk_full, ENOSPC) is an outage, not a fault of the
 * request: ingest answers 503 with Retry-After, as Relay does when it cannot buffer, so SDKs
 * keep the envelope and send it again; nothing is acknowledged that was not stored. Every
 * request would hit it, so it is logged once per interval (not once per request) and shown to
 * administrators (a banner and the Stats page) while it lasts.
 */

/** Seconds an SDK is told to wait before sending again while storage is full. */
export const STORAGE_FULL_RETRY_AFTER_SECONDS = 60;
/** At most one log line per this long while storage stays full. */
export const STORAGE_FULL_LOG_MS = 60_000;
/** A report older than this is stale (nothing refused since, or the reporting thread stopped). */
export const STORAGE_FULL_STALE_MS = 2 * STORAGE_FULL_LOG_MS;

export const STORAGE_FULL_REASON = "the server's storage is full; retry later";

/** What administrators are shown: since when writes fail, the last failure, and requests refused since. */
export interface StorageFullState {
  since: number;
  lastAt: number;
  refused: number;
}

/** The one-line notice for administrators, or null when storage is writable (or the report is stale). */
export function storageFullNotice(state: StorageFullState | null, now: number): string | null {
  if (!state || now - state.lastAt > STORAGE_FULL_STALE_MS) return null;
  const n = state.refused;
  return `The server's storage is full: ingest answers 503 (${n} ${n === 1 ? "request" : "requests"} refused so far) and SDKs retry later. Free disk space; nothing acknowledged was lost.`;
}

/** The Stats page's note: what the chart lacks while storage is full. */
export function storageFullStatsNote(state: StorageFullState | null, now: number): string | null {
  if (!storageFullNotice(state, now) || !state) return null;
  return `Storage is full: ${state.refused} ${state.refused === 1 ? "request was" : "requests were"} answered 503 for SDKs to send again, and are not counted here until they are accepted.`;
}

/**
 * Tracks the condition on the thread that writes ingest's rows. `publish` hands each change of
 * state (and one refresh per interval) to whoever shows it; `log` gets one line per interval.
 */
export class StorageFullWatch {
  private state: StorageFullState | null = null;
  private loggedAt = -Infinity;
  private refusedSinceLog = 0;

  constructor(
    private readonly publish: (state: StorageFullState | null) => void,
    private readonly log: (level: "error" | "info", message: string, fields: Record<string, number>) => void,
    private readonly intervalMs = STORAGE_FULL_LOG_MS,
  ) {}

  /** A write failed because storage is full. */
  full(now: number): void {
    this.state = this.state ? { ...this.state, lastAt: now, refused: this.state.refused + 1 } : { since: now, lastAt: now, refused: 1 };
    this.refusedSinceLog++;
    if (now - this.loggedAt < this.intervalMs) return;
    this.log("error", "storage is full; ingest answers 503 until it is not", {
      refused: this.refusedSinceLog,
      since_ms: now - this.state.since,
    });
    this.loggedAt = now;
    this.refusedSinceLog = 0;
    this.publish(this.state);
  }

  /** A write succeeded: if storage was full, it is not any more. */
  writable(now: number): void {
    if (!this.state) return;
    this.log("info", "storage is writable again", { refused: this.state.refused, full_ms: now - this.state.since });
    this.state = null;
    this.loggedAt = -Infinity;
    this.refusedSinceLog = 0;
    this.publish(null);
  }

  current(): StorageFullState | null {
    return this.state;
  }
}
