import type { IngestQueue, QueueRow } from "../ports/ingest-queue";
import { GroupCommit } from "./group-commit";

export type { QueueRow } from "../ports/ingest-queue";

/**
 * How long a group waits for the queue file while another connection holds its write lock
 * (SQLite: the digest's RESTART checkpoint, 0.4–0.8 s under full load in docs/benchmarks.md)
 * before its requests get a 503 and retry. It waits on timers, not in SQLite's
 * busy handler, so the thread goes on reading requests and serving pages meanwhile.
 */
export const QUEUE_BUSY_LIMIT_MS = 10_000;
/** The first retry of a busy write comes this soon; each next one twice as late, up to the cap. */
const BUSY_RETRY_FIRST_MS = 2;
const BUSY_RETRY_CAP_MS = 50;

/** A group could not be written within QUEUE_BUSY_LIMIT_MS: its requests are answered 503. */
export class QueueBusyError extends Error {
  constructor(waitedMs: number) {
    super(`the ingest queue's file stayed locked for ${Math.round(waitedMs)} ms`);
    this.name = "QueueBusyError";
  }
}

/**
 * Giving freed pages of the queue file back (SQLite) waits until no group has been written for
 * this long: a step of `PRAGMA incremental_vacuum` costs more the larger the file, and under
 * load 1024 pages took the request thread 150–270 ms once a second (docs/benchmarks.md).
 * Inserts reuse freed pages meanwhile.
 */
export const IDLE_BEFORE_VACUUM_MS = 1000;
/**
 * Pages given back per step while idle, at most: 4 MiB of the queue file's 16 KiB pages
 * (QUEUE_PAGE_BYTES in src/db/queue.ts; 1 MiB in an older file of 4 KiB pages,
 * until a start rewrites it: `upgradeQueuePages`).
 * A few milliseconds each, so a request arriving meanwhile hardly waits. A step that takes
 * longer than VACUUM_STEP_TARGET_MS halves the next one (down to VACUUM_MIN_PAGES); a quick one
 * doubles it again.
 */
const VACUUM_PAGES = 256;
const VACUUM_MIN_PAGES = 16;
const VACUUM_STEP_TARGET_MS = 5;
/** Between steps while idle. */
const VACUUM_STEP_MS = 25;
/**
 * And at least this many times as long as the step took: a step costs more the larger the file
 * and the more of it was just written. Right after a 1 M-event backlog drained, 256-page steps
 * took 7–20 ms each, and with only 25 ms between them the give-back kept the request thread —
 * which also carries every page of the web UI — 30–100 % busy for minutes: issue pages took
 * 150–330 ms instead of 30–50 (docs/benchmarks.md). At 4 the give-back
 * uses at most a fifth of the thread.
 */
const VACUUM_PAUSE_FACTOR = 4;

/**
 * After a give-back step of `pages` that took `tookMs`: the next step's size and the pause
 * before it, so that the give-back never holds the request thread long at a time nor keeps it
 * busy more than 1 / (1 + VACUUM_PAUSE_FACTOR) of the time.
 */
export function giveBackPace(pages: number, tookMs: number): { pages: number; pauseMs: number } {
  let next = pages;
  if (tookMs > VACUUM_STEP_TARGET_MS) next = Math.max(VACUUM_MIN_PAGES, Math.floor(pages / 2));
  else if (tookMs < VACUUM_STEP_TARGET_MS / 2) next = Math.min(VACUUM_PAGES, pages * 2);
  return { pages: next, pauseMs: Math.max(VACUUM_STEP_MS, VACUUM_PAUSE_FACTOR * tookMs) };
}

/** Rows per group commit: one statement each (IngestQueue.append). */
const GROUP_ROWS = 128;

/**
 * The request path's writes to the ingest queue: rows group-committed (src/core/ingest/group-commit.ts)
 * and, on SQLite, the deletion of rows the digest has finished with. There the digest only
 * reads the queue file and reports how far it got (`forget`); deleting in the same
 * transactions as the inserts keeps the request path the file's only writer, so an insert
 * never waits for another thread's lock (docs/decisions/0005-sqlite-queue-file-and-request-path-first.md).
 */
export class QueueWriter {
  private readonly group: GroupCommit<QueueRow>;
  private forgetUpTo = 0;
  private forgotten = 0;
  private lastWrite = 0;
  private idleTimer: ReturnType<typeof setTimeout> | undefined;
  /** Pages the next give-back step frees (see VACUUM_PAGES). */
  private stepPages = VACUUM_PAGES;
  /** The WAL was emptied since the last write (IngestQueue.truncateLog). */
  private walEmpty = true;

  /**
   * `vacuum` (SQLite): give freed pages of the queue file back (incremental auto-vacuum) once no
   * group has been written for `idleMs`, a few pages at a time. The request path is the queue
   * file's only writer, so the digest thread does not do it
   * (docs/decisions/0005-sqlite-queue-file-and-request-path-first.md). `concurrency`: groups written at once (see GroupCommit; PostgreSQL overlaps
   * several commits, each on its own pooled connection).
   */
  constructor(
    private readonly queue: IngestQueue,
    private readonly vacuum = false,
    concurrency = 1,
    private readonly idleMs = IDLE_BEFORE_VACUUM_MS,
    private readonly busyLimitMs = QUEUE_BUSY_LIMIT_MS,
  ) {
    this.group = new GroupCommit(
      (rows) => this.write(rows),
      GROUP_ROWS,
      concurrency,
      // A full disk fails every row alike: written again one by one, each would fail the same way.
      (error) => error instanceof QueueBusyError || queue.isFull(error),
    );
  }

  /** Resolves once the row is committed. */
  add(row: QueueRow): Promise<void> {
    return this.group.add(row);
  }

  /** Queue rows with ids at or below `upTo` are digested: they go with the next write, or soon if none comes. */
  forget(upTo: number): void {
    if (upTo <= this.forgetUpTo) return;
    this.forgetUpTo = upTo;
    this.group.nudge();
  }

  private async write(rows: readonly QueueRow[]): Promise<void> {
    try {
      await this.writeWhenFree(rows);
    } finally {
      this.wroteNow();
    }
  }

  /**
   * Writes the group, trying again on a timer while another connection holds the file's write
   * lock (SQLITE_BUSY at once: the request thread's connection has no busy timeout, see
   * src/db/connect.ts). A failed transaction is rolled back whole, so trying again is safe.
   */
  private async writeWhenFree(rows: readonly QueueRow[]): Promise<void> {
    const started = performance.now();
    for (let pause = BUSY_RETRY_FIRST_MS; ; pause = Math.min(BUSY_RETRY_CAP_MS, pause * 2)) {
      try {
        return await this.writeGroup(rows);
      } catch (error) {
        if (!this.queue.isBusy(error)) throw error;
        const waited = performance.now() - started;
        if (waited >= this.busyLimitMs) throw new QueueBusyError(waited);
        await new Promise((resolve) => setTimeout(resolve, Math.min(pause, this.busyLimitMs - waited)));
      }
    }
  }

  private async writeGroup(rows: readonly QueueRow[]): Promise<void> {
    const upTo = this.forgetUpTo;
    if (upTo <= this.forgotten) return this.queue.append(rows);
    await this.queue.forgetAndAppend(upTo, rows);
    this.forgotten = upTo;
  }

  /** A group was written: freed pages are given back once the path has been idle for `idleMs`. */
  private wroteNow(): void {
    if (!this.vacuum) return;
    this.lastWrite = Date.now();
    this.walEmpty = false;
    this.idleTimer ??= this.after(this.idleMs);
  }

  private after(ms: number): ReturnType<typeof setTimeout> {
    const timer = setTimeout(() => void this.giveBack(), ms);
    timer.unref();
    return timer;
  }

  /** One step of giving freed pages back, if the path is still idle; then the next, until none are free. */
  private async giveBack(): Promise<void> {
    this.idleTimer = undefined;
    const quiet = Date.now() - this.lastWrite;
    if (quiet < this.idleMs) {
      this.idleTimer = this.after(this.idleMs - quiet);
      return;
    }
    const started = performance.now();
    try {
      if ((await this.queue.freePages()) === 0) {
        // Last, the WAL: it still holds the frames of the envelopes just deleted.
        if (!this.walEmpty) this.walEmpty = await this.queue.truncateLog();
        if (!this.walEmpty) this.idleTimer ??= this.after(this.idleMs);
        return;
      }
      await this.queue.givePagesBack(this.stepPages);
    } catch (error) {
      // Busy (the digest's RESTART checkpoint holds the file): try again after a pause.
      // Closed: the next write, if any, arms the next attempt.
      if (this.queue.isBusy(error)) this.idleTimer ??= this.after(this.idleMs);
      return;
    }
    const next = giveBackPace(this.stepPages, performance.now() - started);
    this.stepPages = next.pages;
    this.idleTimer ??= this.after(next.pauseMs);
  }
}
