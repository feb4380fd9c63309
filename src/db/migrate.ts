import { Migrator, sql, type Kysely, type MigrationResultSet } from "kysely";
import type { Store } from "./connect";
import type { DB } from "./schema";
import { m0001 } from "./migrations/0001_foundation";
import { m0002 } from "./migrations/0002_internal_project";
import { m0003 } from "./migrations/0003_ingest_queue";
import { m0004 } from "./migrations/0004_ingest_storage";
import { m0005 } from "./migrations/0005_internal_project_filters";
import { m0006 } from "./migrations/0006_issues";
import { m0007 } from "./migrations/0007_digest_progress";
import { m0008 } from "./migrations/0008_dead_letters";
import { m0009 } from "./migrations/0009_login_attempts";
import { m0010 } from "./migrations/0010_localhost_filter_default";
import { m0011 } from "./migrations/0011_project_grouping_config";
import { m0012 } from "./migrations/0012_issue_window_counts";
import { m0013 } from "./migrations/0013_issue_changes";
import { m0014 } from "./migrations/0014_activity_consumer";
import { m0015 } from "./migrations/0015_compressed_payloads";
import { m0016 } from "./migrations/0016_token_scopes";
import { m0017 } from "./migrations/0017_teams";
import { m0018 } from "./migrations/0018_accounts";
import { m0019 } from "./migrations/0019_releases";
import { m0020 } from "./migrations/0020_release_health";
import { m0022 } from "./migrations/0022_digest_deferred";
import { m0023 } from "./migrations/0023_alert_rules";
import { m0024 } from "./migrations/0024_alert_notifications";
import { m0025 } from "./migrations/0025_alert_channels";
import { m0027 } from "./migrations/0027_metric_alerts";
import { m0028 } from "./migrations/0028_notification_preferences";
import { m0029 } from "./migrations/0029_sso";
import { m0030 } from "./migrations/0030_two_factor";
import { m0031 } from "./migrations/0031_audit_log";
import { m0032 } from "./migrations/0032_queue_lz4";
import { m0033 } from "./migrations/0033_no_trace_issue_tags";
import { m0034 } from "./migrations/0034_retention_indexes";
import { m0035 } from "./migrations/0035_issue_title_words";
import { m0036 } from "./migrations/0036_issue_hash_merged_from";
import { adoptQueue } from "./queue";
import type { AnyDb, Migration } from "./migrations/helpers";

/** Every migration, in order. Names are permanent: they are recorded in kysely_migration. */
const MIGRATIONS: Record<string, Migration> = {
  "0001_foundation": m0001,
  "0002_internal_project": m0002,
  "0003_ingest_queue": m0003,
  "0004_ingest_storage": m0004,
  "0005_internal_project_filters": m0005,
  "0006_issues": m0006,
  "0007_digest_progress": m0007,
  "0008_dead_letters": m0008,
  "0009_login_attempts": m0009,
  "0010_localhost_filter_default": m0010,
  "0011_project_grouping_config": m0011,
  "0012_issue_window_counts": m0012,
  "0013_issue_changes": m0013,
  "0014_activity_consumer": m0014,
  "0015_compressed_payloads": m0015,
  "0016_token_scopes": m0016,
  "0017_teams": m0017,
  "0018_accounts": m0018,
  "0019_releases": m0019,
  "0020_release_health": m0020,
  "0022_digest_deferred": m0022,
  "0023_alert_rules": m0023,
  "0024_alert_notifications": m0024,
  "0025_alert_channels": m0025,
  "0027_metric_alerts": m0027,
  "0028_notification_preferences": m0028,
  "0029_sso": m0029,
  "0030_two_factor": m0030,
  "0031_audit_log": m0031,
  "0032_queue_lz4": m0032,
  "0033_no_trace_issue_tags": m0033,
  "0034_retention_indexes": m0034,
  "0035_issue_title_words": m0035,
  "0036_issue_hash_merged_from": m0036,
};

export interface MigrateResult {
  applied: string[];
}

/** Brings the database to the newest schema. Safe to run at every start and from several processes. */
export async function migrate(store: Store): Promise<MigrateResult> {
  if (store.dialect === "postgres") return migrateWith(store, store.db);
  // Kysely takes no lock and no transaction for SQLite migrations, so two processes starting
  // at once would both apply them. BEGIN IMMEDIATE takes the write lock first (the other
  // process waits for it, busy_timeout) and makes the whole run atomic.
  const result = await store.db.connection().execute(async (db) => {
    await sql`begin immediate`.execute(db);
    try {
      const result = await migrateWith(store, db);
      await sql`commit`.execute(db);
      return result;
    } catch (error) {
      await sql`rollback`.execute(db);
      throw error;
    }
  });
  await adoptQueue(store);
  return result;
}

async function migrateWith(store: Store, db: Kysely<DB>): Promise<MigrateResult> {
  const migrator = new Migrator({
    db,
    // Kysely looks for its own tables in every schema unless told which one: without this,
    // a database whose public schema is migrated would look migrated from any other schema.
    ...(store.schema ? { migrationTableSchema: store.schema } : {}),
    provider: {
      getMigrations: () =>
        Promise.resolve(
          Object.fromEntries(Object.entries(MIGRATIONS).map(([name, m]) => [name, { up: (db: AnyDb) => m.up(db, store.dialect) }])),
        ),
    },
  });
  const { error, results }: MigrationResultSet = await migrator.migrateToLatest();
  if (error) throw error instanceof Error ? error : new Error(String(error));
  return { applied: (results ?? []).filter((r) => r.status === "Success").map((r) => r.migrationName) };
}
