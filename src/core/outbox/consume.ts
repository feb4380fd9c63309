/**
 * Reading the issue-change outbox in order. Each consumer has a position (the last change it
 * has taken). One process advances a consumer at a time: its position row is claimed
 * `FOR UPDATE SKIP LOCKED` on PostgreSQL (another process finds it taken and goes on), and
 * SQLite has one writer anyway.
 *
 * - A consumer whose effects are in this database (`inDatabase`) writes them in the same
 *   transaction that moves its position: each change takes effect exactly once.
 * - A consumer with outside effects (email, webhooks) gets each change at least once: the
 *   position moves only after `deliver` returns, so a failure or a crash between the two
 *   delivers the same changes again, with the same `id`s to deduplicate with.
 */
import type { Kysely } from "kysely";
import type { DB } from "../../db/schema";
import type { Ctx } from "../context";
import type { IssueChangeKind, IssueChangeRecord } from "./changes";

export interface InDatabaseConsumer {
  name: string;
  inDatabase: true;
  /** `ctx` for ports that bind to `trx` (`ctx.alerts.within(trx)`); every write goes through `trx`. */
  handle(trx: Kysely<DB>, changes: readonly IssueChangeRecord[], ctx: Ctx): Promise<void>;
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
export async function consumeOnce(ctx: Ctx, consumer: OutboxConsumer, batch = DEFAULT_BATCH): Promise<number> {
  await ctx.db
    .insertInto("outbox_positions")
    .values({ consumer: consumer.name, seq: 0, updated_at: ctx.now() })
    .onConflict((oc) => oc.column("consumer").doNothing())
    .execute();
  return ctx.db.transaction().execute(async (trx) => {
    let claim = trx.selectFrom("outbox_positions").select("seq").where("consumer", "=", consumer.name);
    if (ctx.dialect === "postgres") claim = claim.forUpdate().skipLocked();
    const position = await claim.executeTakeFirst();
    if (!position) return 0;
    const rows = await trx
      .selectFrom("issue_changes")
      .selectAll()
      .where("seq", ">", Number(position.seq))
      .orderBy("seq")
      .limit(batch)
      .execute();
    if (rows.length === 0) return 0;
    const changes: IssueChangeRecord[] = rows.map((r) => ({
      seq: Number(r.seq),
      id: `issue-change-${r.seq}`,
      projectId: r.project_id,
      issueId: r.issue_id,
      kind: r.kind as IssueChangeKind,
      data: JSON.parse(r.data) as Record<string, unknown>,
      userId: r.user_id,
      at: Number(r.created_at),
    }));
    if (consumer.inDatabase) await consumer.handle(trx, changes, ctx);
    else await consumer.deliver(changes);
    await trx
      .updateTable("outbox_positions")
      .set({ seq: changes[changes.length - 1]!.seq, updated_at: ctx.now() })
      .where("consumer", "=", consumer.name)
      .execute();
    return changes.length;
  });
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
