/**
 * Group commit: writes that arrive while one is in progress (or within the same turn of the
 * event loop) are written together, one statement and one commit for many requests, and
 * each caller's promise settles only after its row is committed — so a 200 still means
 * stored. When a group fails, its rows are written one by one, so that one bad row (a project
 * deleted meanwhile) fails only its own request — unless the error is about the store, not a
 * row (`failsGroup`), which fails the whole group at once.
 */
export class GroupCommit<T> {
  private pending: { row: T; resolve: () => void; reject: (error: unknown) => void }[] = [];
  /** Write loops running; at most `concurrency`. */
  private running = 0;
  /** A loop is about to start (it waits one turn of the event loop): rows arriving meanwhile join it. */
  private starting = false;
  private nudged = false;

  /**
   * `concurrency` groups may be in flight at once: 1 where writes serialize anyway (SQLite's
   * single writer), more where each commit is a network round trip and a WAL flush that other
   * groups can overlap (PostgreSQL, one pooled connection per group). `failsGroup`: errors
   * that say nothing about any one row (the store stayed busy): the whole group fails with them
   * at once instead of being written again row by row.
   */
  constructor(
    private readonly write: (rows: readonly T[]) => Promise<void>,
    private readonly maxRows = 128,
    private readonly concurrency = 1,
    private readonly failsGroup: (error: unknown) => boolean = () => false,
  ) {}

  add(row: T): Promise<void> {
    return new Promise<void>((resolve, reject) => {
      this.pending.push({ row, resolve, reject });
      this.schedule();
    });
  }

  /**
   * Makes sure a write happens soon even if no row arrives: `write` is called with no rows
   * when nothing else is pending (for housekeeping the writer does with every write). A
   * failure of such a write has no request to fail; the next write tries again.
   */
  nudge(): void {
    this.nudged = true;
    this.schedule();
  }

  /** Starts a write loop unless one is idle-waiting already or all are busy writing. */
  private schedule(): void {
    if (this.running >= this.concurrency || this.starting) return;
    this.running++;
    this.starting = true;
    // One turn of the event loop lets the requests whose bodies are already read join in.
    setImmediate(() => {
      this.starting = false;
      void this.drain();
    });
  }

  private async drain(): Promise<void> {
    while (this.pending.length > 0 || this.nudged) {
      this.nudged = false;
      const group = this.pending.splice(0, this.maxRows);
      if (group.length === 0) {
        await this.write([]).catch(() => {});
        continue;
      }
      // Rows that arrive while this group is written may start another loop meanwhile.
      if (this.pending.length > 0) this.schedule();
      try {
        await this.write(group.map((g) => g.row));
        for (const g of group) g.resolve();
      } catch (error) {
        if (group.length === 1 || this.failsGroup(error)) for (const g of group) g.reject(error);
        else {
          for (const g of group) {
            try {
              await this.write([g.row]);
              g.resolve();
            } catch (single) {
              g.reject(single);
            }
          }
        }
      }
      // A SQLite write is synchronous: give the event loop a turn to read more requests.
      if (this.pending.length > 0) await new Promise<void>((resolve) => setImmediate(resolve));
    }
    this.running--;
  }
}
