import type { Kysely } from "kysely";
import type { IssueChangeKind, IssueChangeRecord } from "../core/outbox/changes";
import type { ActivityEntry, ActivityLog, ConsumeChanges, OutboxStore, OutboxTxPorts } from "../core/ports/outbox";
import { KyselyAlertStore } from "./alerts-store";
import type { Dialect } from "./connect";
import type { DB } from "./schema";
import { KyselyUserNotificationStore } from "./user-notifications-store";

/** Rows per INSERT of activity. */
const ACTIVITY_CHUNK = 500;

export class KyselyActivityLog implements ActivityLog {
  constructor(private readonly db: Kysely<DB>) {}

  async append(entries: readonly ActivityEntry[]): Promise<void> {
    const rows = entries.map((e) => ({
      issue_id: e.issueId,
      user_id: e.userId,
      type: e.type,
      data: JSON.stringify(e.data),
      created_at: e.at,
    }));
    for (let i = 0; i < rows.length; i += ACTIVITY_CHUNK)
      await this.db
        .insertInto("issue_activity")
        .values(rows.slice(i, i + ACTIVITY_CHUNK))
        .execute();
  }
}

/**
 * One process advances a consumer at a time: its position row is claimed `FOR UPDATE SKIP
 * LOCKED` on PostgreSQL (another process finds it taken and goes on); SQLite has one writer anyway.
 */
export class KyselyOutboxStore implements OutboxStore {
  constructor(
    private readonly db: Kysely<DB>,
    private readonly dialect: Dialect,
  ) {}

  async head(): Promise<number> {
    const counter = await this.db.selectFrom("outbox_counter").select("seq").where("id", "=", 1).executeTakeFirst();
    return Number(counter?.seq ?? 0);
  }

  async positions(consumers: readonly string[]): Promise<Map<string, number>> {
    if (consumers.length === 0) return new Map();
    const rows = await this.db.selectFrom("outbox_positions").select(["consumer", "seq"]).where("consumer", "in", consumers).execute();
    return new Map(rows.map((p) => [p.consumer, Number(p.seq)]));
  }

  async consume(consumer: string, batch: number, run: ConsumeChanges, now: () => number): Promise<number> {
    await this.db
      .insertInto("outbox_positions")
      .values({ consumer, seq: 0, updated_at: now() })
      .onConflict((oc) => oc.column("consumer").doNothing())
      .execute();
    return this.db.transaction().execute(async (trx) => {
      let claim = trx.selectFrom("outbox_positions").select("seq").where("consumer", "=", consumer);
      if (this.dialect === "postgres") claim = claim.forUpdate().skipLocked();
      const position = await claim.executeTakeFirst();
      if (!position) return 0;
      const rows = await trx
        .selectFrom("issue_changes")
        .selectAll()
        .where("seq", ">", Number(position.seq))
        .orderBy("seq")
        .limit(batch)
        .execute();
      const last = rows[rows.length - 1];
      if (!last) return 0;
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
      await run(changes, this.portsOf(trx));
      await trx
        .updateTable("outbox_positions")
        .set({ seq: Number(last.seq), updated_at: now() })
        .where("consumer", "=", consumer)
        .execute();
      return changes.length;
    });
  }

  private portsOf(trx: Kysely<DB>): OutboxTxPorts {
    return {
      alerts: new KyselyAlertStore(trx, this.dialect),
      userNotifications: new KyselyUserNotificationStore(trx),
      activity: new KyselyActivityLog(trx),
    };
  }
}
