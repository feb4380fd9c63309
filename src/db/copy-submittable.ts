import type pg from "pg";

/**
 * A COPY run through node-postgres as `client.query(submittable)` (src/db/queue-copy.ts,
 * src/db/copy-out.ts): `done` settles with the server's error, or at its ReadyForQuery with what
 * `result` makes of the answer. The client passes every message to whatever query is active,
 * so the handlers a COPY gets no use of do nothing.
 */
export abstract class CopySubmittable<T> implements pg.Submittable {
  readonly done: Promise<T>;
  protected failure: Error | null = null;
  private settle: (outcome: { error: Error } | { value: () => T }) => void = () => {};

  constructor() {
    this.done = new Promise<T>((resolve, reject) => {
      let settled = false;
      this.settle = (outcome) => {
        if (settled) return;
        settled = true;
        if ("error" in outcome) return reject(outcome.error);
        try {
          resolve(outcome.value());
        } catch (error) {
          reject(error instanceof Error ? error : new Error(String(error)));
        }
      };
    });
  }

  abstract submit(connection: pg.Connection): void;

  /** The COPY's outcome, once the server is ready for the next query and nothing failed. */
  protected abstract result(): T;

  /** The client forgets the query on an error (no ReadyForQuery reaches it): settle now. */
  handleError(error: Error): void {
    this.failure ??= error;
    this.settle({ error: this.failure });
  }

  handleReadyForQuery(): void {
    this.settle(this.failure ? { error: this.failure } : { value: () => this.result() });
  }

  handleCopyData(_message: { chunk: Buffer }): void {}
  handleCopyInResponse(): void {}
  handleCommandComplete(): void {}
  handleRowDescription(): void {}
  handleDataRow(): void {}
  handleEmptyQuery(): void {}
  handlePortalSuspended(): void {}
}
