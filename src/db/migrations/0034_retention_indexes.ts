import type { Migration } from "./helpers";

/**
 * Retention finds old rows through an index, project by project, instead of reading whole
 * tables once an hour. Before, `timestamp < cutoff and project_id <> internal` had no index to
 * use on transactions, spans, raw items, feedback, check-ins and attachments, and logs' index
 * was read whole: on a file holding 5 M spans that one statement took ~0.5 s of the digest
 * thread each hour even when nothing was old (docs/benchmarks.md),
 * longer when the pages were not cached. The `(project_id, time)` indexes also let deleting a
 * project seek to its rows. `issue_hourly` gets an index on its hour for the same reason.
 * Building them reads each table once, at the first start after the upgrade.
 */
export const m0034: Migration = {
  async up(db) {
    const indexes: [name: string, table: string, columns: string[]][] = [
      ["transactions_project_time", "transactions", ["project_id", "timestamp"]],
      ["spans_project_time", "spans", ["project_id", "timestamp"]],
      ["raw_items_project_received", "raw_items", ["project_id", "received_at"]],
      ["feedback_project_received", "feedback", ["project_id", "received_at"]],
      ["check_ins_project_received", "check_ins", ["project_id", "received_at"]],
      ["attachments_project_created", "attachments", ["project_id", "created_at"]],
      ["issue_hourly_hour", "issue_hourly", ["hour"]],
    ];
    for (const [name, table, columns] of indexes) await db.schema.createIndex(name).ifNotExists().on(table).columns(columns).execute();
  },
};
