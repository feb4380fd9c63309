import type { Insertable, Kysely, Selectable } from "kysely";
import type { AttemptOutcome, AttemptRecord, DeliveryQueue, DeliveryState, NotificationStatus } from "../core/ports/delivery";
import type { Dialect } from "./connect";
import type { DB } from "./schema";
import type { AttemptColumns, DeliveryColumns } from "./schema-delivery";

/** The notification tables, and the attempts table beside each. */
export type NotificationTable = "alert_notifications" | "metric_alert_notifications";
const ATTEMPTS = { alert_notifications: "alert_attempts", metric_alert_notifications: "metric_alert_attempts" } as const;
type AttemptTable<T extends NotificationTable> = (typeof ATTEMPTS)[T];
/** A row of table `T`, whose delivery columns every notification table has. */
type Row<T extends NotificationTable> = Selectable<DB[T]> & Selectable<DeliveryColumns>;

/** One kind of notification: its table, and how its own columns map to and from the domain. */
export interface DeliveryKind<T extends NotificationTable, N> {
  table: T;
  /** A new notification's own columns; the delivery columns are added to them here. */
  columns(n: N): Omit<Insertable<DB[T]>, keyof DeliveryColumns>;
  /** The notification a stored row holds, without its delivery state. */
  fields(row: Selectable<DB[T]>): N;
  /** What an attempt stores beyond the shared columns (a web channel's answer), if anything. */
  attemptColumns?(attempt: AttemptRecord): Omit<Insertable<DB[AttemptTable<T>]>, keyof AttemptColumns>;
}

export function deliveryState(row: Selectable<DeliveryColumns>): DeliveryState {
  return {
    status: row.status as NotificationStatus,
    attempts: row.attempts,
    nextAttemptAt: Number(row.next_attempt_at),
    lastError: row.last_error,
    messageId: row.message_id,
    sentAt: row.sent_at === null ? null : Number(row.sent_at),
  };
}

/**
 * Notification rows per INSERT (an outbox run may make many: a change per issue, a row per
 * recipient): at 14 columns a row, a chunk stays under SQLite's 32,766 bound parameters.
 */
const NOTIFICATION_CHUNK = 1000;

/**
 * A notification table's delivery (src/core/ports/delivery.ts). Queries are written against the
 * union of the notification tables, whose shared columns are `DeliveryColumns`; a kind's own
 * columns go through its `DeliveryKind`, typed by its table.
 */
export class KyselyDelivery<T extends NotificationTable, N extends { id: string; createdAt: number }> implements DeliveryQueue<N> {
  constructor(
    protected readonly db: Kysely<DB>,
    protected readonly dialect: Dialect,
    protected readonly kind: DeliveryKind<T, N>,
  ) {}

  /** A stored row as the domain record, with its delivery state. */
  protected record(row: Row<T>): N & DeliveryState {
    return { ...this.kind.fields(row), ...deliveryState(row) };
  }

  async insertNotifications(rows: readonly N[]): Promise<void> {
    for (let i = 0; i < rows.length; i += NOTIFICATION_CHUNK) await this.insertChunk(rows.slice(i, i + NOTIFICATION_CHUNK));
  }

  private async insertChunk(rows: readonly N[]): Promise<void> {
    if (rows.length === 0) return;
    const values = rows.map((n) => ({
      ...this.kind.columns(n),
      id: n.id,
      status: "pending",
      attempts: 0,
      next_attempt_at: n.createdAt,
      created_at: n.createdAt,
    }));
    await this.db
      .insertInto(this.kind.table as NotificationTable)
      .values(values as Insertable<DB[NotificationTable]>[])
      .onConflict((oc) => oc.column("id").doNothing())
      .execute();
  }

  private dueQuery(db: Kysely<DB>, now: number) {
    return db
      .selectFrom(this.kind.table as NotificationTable)
      .where("status", "=", "pending")
      .where("next_attempt_at", "<=", now)
      .where((eb) => eb.or([eb("claimed_until", "is", null), eb("claimed_until", "<", now)]));
  }

  async anyDue(now: number): Promise<boolean> {
    return (await this.dueQuery(this.db, now).select("id").limit(1).executeTakeFirst()) !== undefined;
  }

  claimDue(now: number, limit: number, leaseMs: number): Promise<(N & DeliveryState)[]> {
    return this.db.transaction().execute(async (trx) => {
      let query = this.dueQuery(trx, now).selectAll().orderBy("next_attempt_at").orderBy("id").limit(limit);
      if (this.dialect === "postgres") query = query.forUpdate().skipLocked();
      const rows = (await query.execute()) as Row<T>[];
      if (rows.length === 0) return [];
      await trx
        .updateTable(this.kind.table as NotificationTable)
        .set({ claimed_until: now + leaseMs })
        .where(
          "id",
          "in",
          rows.map((r) => r.id),
        )
        .execute();
      return rows.map((r) => this.record(r));
    });
  }

  async recordAttempt(attempt: AttemptRecord, next: AttemptOutcome): Promise<void> {
    await this.db.transaction().execute(async (trx) => {
      await trx
        .insertInto(ATTEMPTS[this.kind.table] as AttemptTable<NotificationTable>)
        .values({
          ...this.kind.attemptColumns?.(attempt),
          notification_id: attempt.notificationId,
          attempt: attempt.attempt,
          status: attempt.status,
          error: attempt.error,
          at: attempt.at,
        })
        .execute();
      await trx
        .updateTable(this.kind.table as NotificationTable)
        .set({
          status: next.status,
          attempts: attempt.attempt,
          next_attempt_at: next.nextAttemptAt,
          claimed_until: null,
          last_error: attempt.error,
          message_id: next.messageId,
          sent_at: next.sentAt,
        })
        .where("id", "=", attempt.notificationId)
        .execute();
    });
  }
}
