/**
 * Reading the issue-change outbox in order. Each consumer has a position (the last change it
 * has taken), and one process advances a consumer at a time (OutboxStore.consume).
 *
 * - A consumer whose effects are in this database (`inDatabase`) writes them through the
 *   ports of the transaction that moves its position: each change takes effect exactly once.
 * - A consumer with outside effects (email, webhooks) gets each change at least once: the
 *   position moves only after `deliver` returns, so a failure or a crash between the two
 *   delivers the same changes again, with the same `id`s to deduplicate with.
 */
import type { Ctx } from "../context";
import type { OutboxTxPorts } from "../ports/outbox";
import type { IssueChangeRecord } from "./changes";

export interface InDatabaseConsumer {
  name: string;
  inDatabase: true;
  /** Every write goes through `ports`, bound to the transaction that moves the position; `ctx` for the rest (the clock). */
  handle(changes: readonly IssueChangeRecord[], ports: OutboxTxPorts, ctx: Ctx): Promise<void>;
}

export interface OutsideConsumer {
  name: string;
  inDatabase: false;
  deliver(changes: readonly IssueChangeRecord[]): Promise<void>;
}

export type OutboxConsumer = InDatabaseConsumer | OutsideConsumer;

const DEFAULT_BATCH = 200;

/**
 * Gives the consumer the next changes after its position, at most `batch` of them; returns how
 * many it took (0 when there were none, or when another process holds this consumer now).
 */
export function consumeOnce(ctx: Ctx, consumer: OutboxConsumer, batch = DEFAULT_BATCH): Promise<number> {
  return ctx.outbox.consume(
    consumer.name,
    batch,
    (changes, ports) => (consumer.inDatabase ? consumer.handle(changes, ports, ctx) : consumer.deliver(changes)),
    ctx.now,
  );
}

/** Runs the consumer until it has caught up (or another process holds it); returns how many changes it took. */
export async function consumeAll(ctx: Ctx, consumer: OutboxConsumer, batch = DEFAULT_BATCH): Promise<number> {
  let total = 0;
  for (;;) {
    const n = await consumeOnce(ctx, consumer, batch);
    total += n;
    if (n < batch) return total;
  }
}
