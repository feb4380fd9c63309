import type { Generated } from "kysely";

/** The audit log (migration 0031), part of `DB` in ./schema.ts. */
export interface AuditSchema {
  audit_log: AuditLogTable;
}

export interface AuditLogTable {
  id: Generated<number>;
  organization_id: number;
  event: string;
  actor_user_id: number | null;
  actor_label: string;
  actor_token_id: number | null;
  ip_address: string | null;
  target_type: string;
  target_id: string | null;
  target_label: string;
  /** JSON `{ before?, after? }` (src/core/ports/audit.ts). */
  data: string;
  created_at: number;
}
