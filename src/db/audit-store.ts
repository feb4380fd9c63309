import type { Kysely, Selectable } from "kysely";
import type { AuditActor, AuditData, AuditEntry, AuditLog, AuditQuery, NewAuditEntry } from "../core/ports/audit";
import type { DB } from "./schema";
import type { AuditLogTable } from "./schema-audit";

/** The audit log over the main database, the same SQL on both dialects; inserts and reads only, and retention's delete. */
export class KyselyAuditLog implements AuditLog {
  constructor(private readonly db: Kysely<DB>) {}

  async append(entry: NewAuditEntry): Promise<void> {
    await this.db
      .insertInto("audit_log")
      .values({
        organization_id: entry.organizationId,
        event: entry.event,
        actor_user_id: entry.actorUserId,
        actor_label: entry.actorLabel,
        actor_token_id: entry.actorTokenId,
        ip_address: entry.ipAddress,
        target_type: entry.targetType,
        target_id: entry.targetId,
        target_label: entry.targetLabel,
        data: JSON.stringify(entry.data),
        created_at: entry.createdAt,
      })
      .execute();
  }

  async appendPerMembership(userId: number, entry: Omit<NewAuditEntry, "organizationId">): Promise<void> {
    const orgs = await this.db.selectFrom("memberships").select("organization_id").where("user_id", "=", userId).execute();
    for (const { organization_id } of orgs) await this.append({ ...entry, organizationId: organization_id });
  }

  async list(organizationId: number, query: AuditQuery): Promise<AuditEntry[]> {
    let q = this.db.selectFrom("audit_log").selectAll().where("organization_id", "=", organizationId);
    if (query.event !== undefined) q = q.where("event", "=", query.event);
    if (query.actorUserId !== undefined) q = q.where("actor_user_id", "=", query.actorUserId);
    if (query.from !== undefined) q = q.where("created_at", ">=", query.from);
    if (query.to !== undefined) q = q.where("created_at", "<", query.to);
    if (query.beforeId !== undefined) q = q.where("id", "<", query.beforeId);
    const rows = await q.orderBy("id", "desc").limit(query.limit).execute();
    return rows.map(toEntry);
  }

  async actors(organizationId: number): Promise<AuditActor[]> {
    const rows = await this.db
      .selectFrom("audit_log")
      .select(["actor_user_id", (eb) => eb.fn.max("actor_label").as("label")])
      .where("organization_id", "=", organizationId)
      .where("actor_user_id", "is not", null)
      .groupBy("actor_user_id")
      .orderBy("label")
      .execute();
    return rows.map((r) => ({ userId: Number(r.actor_user_id), label: String(r.label) }));
  }

  async prune(before: number, batch: number): Promise<number> {
    const ids = await this.db.selectFrom("audit_log").select("id").where("created_at", "<", before).limit(batch).execute();
    if (ids.length === 0) return 0;
    const result = await this.db
      .deleteFrom("audit_log")
      .where(
        "id",
        "in",
        ids.map((r) => r.id),
      )
      .executeTakeFirst();
    return Number(result.numDeletedRows);
  }
}

function toEntry(row: Selectable<AuditLogTable>): AuditEntry {
  return {
    id: row.id,
    organizationId: row.organization_id,
    event: row.event,
    actorUserId: row.actor_user_id,
    actorLabel: row.actor_label,
    actorTokenId: row.actor_token_id,
    ipAddress: row.ip_address,
    targetType: row.target_type,
    targetId: row.target_id,
    targetLabel: row.target_label,
    data: parseData(row.data),
    createdAt: Number(row.created_at),
  };
}

/** The stored JSON was written by `append`; anything else reads as no summary. */
function parseData(text: string): AuditData {
  try {
    const value: unknown = JSON.parse(text);
    return value !== null && typeof value === "object" && !Array.isArray(value) ? (value as AuditData) : {};
  } catch {
    return {};
  }
}
