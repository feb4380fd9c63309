import { randomBytes } from "node:crypto";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import pg from "pg";
import { connect, type ConnectOptions, type Dialect, type Store } from "../../src/db/connect";
import { migrate } from "../../src/db/migrate";
import { KyselyAccountStore } from "../../src/db/account-store";
import { KyselyIssueSearch } from "../../src/db/issue-search";
import { KyselyTelemetryReader } from "../../src/db/telemetry-read";
import { KyselyDirectory } from "../../src/db/directory";
import { KyselyArtifactStore } from "../../src/db/artifact-store";
import { KyselyReleaseHealthStore } from "../../src/db/release-health-store";
import { KyselyReleaseStore } from "../../src/db/release-store";
import { KyselyDigestQueue } from "../../src/db/digest-queue";
import { KyselyReleaseOrder } from "../../src/db/release-order";
import { KyselyAlertStore } from "../../src/db/alerts-store";
import { KyselyMetricAlertStore } from "../../src/db/metric-alerts-store";
import { KyselyUserNotificationStore } from "../../src/db/user-notifications-store";
import { KyselyAuditLog } from "../../src/db/audit-store";
import { KyselySsoStore } from "../../src/db/sso-store";
import type { Ctx } from "../../src/core/context";
import { KyselyTwoFactorStore } from "../../src/db/two-factor-store";
import { SecretBox } from "../../src/core/crypto/secret-box";

/** Every storage test runs on both databases. */
export const DIALECTS: Dialect[] = ["sqlite", "postgres"];

export const PG_URL = process.env.TEST_DATABASE_URL ?? "postgres://postgres@127.0.0.1:5432/test";

export interface TestStore extends Store {
  /** Connection settings for another process (a server or the CLI) to open the same data. */
  env: Record<string, string>;
  cleanup(): Promise<void>;
}

/**
 * A fresh, migrated database per suite: a new SQLite file in a temporary directory, or a
 * new PostgreSQL database (so that processes spawned by the test, which cannot be told a
 * schema, see the same isolated data).
 */
export async function openTestStore(dialect: Dialect, options: Pick<ConnectOptions, "digest"> = {}): Promise<TestStore> {
  const dir = mkdtempSync(join(tmpdir(), "telltale-test-"));
  if (dialect === "sqlite") {
    const store = connect({ kind: "sqlite", file: join(dir, "telltale.sqlite") }, options);
    await migrate(store);
    return {
      ...store,
      env: { TELLTALE_DATA_DIR: dir },
      async cleanup() {
        await store.close();
        rmSync(dir, { recursive: true, force: true });
      },
    };
  }
  const name = `telltale_t_${randomBytes(6).toString("hex")}`;
  const admin = new pg.Client({ connectionString: PG_URL });
  await admin.connect();
  await admin.query(`CREATE DATABASE ${name}`);
  await admin.end();
  const url = new URL(PG_URL);
  url.pathname = `/${name}`;
  const store = connect({ kind: "postgres", url: url.toString(), poolMax: 4 });
  await migrate(store);
  return {
    ...store,
    env: { TELLTALE_DATA_DIR: dir, DATABASE_URL: url.toString() },
    async cleanup() {
      await store.close();
      const c = new pg.Client({ connectionString: PG_URL });
      await c.connect();
      await c.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
      await c.end();
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

export function testCtx(store: Store, overrides: Partial<Ctx> = {}): Ctx {
  const releaseOrder = overrides.releaseOrder ?? new KyselyReleaseOrder(store.db);
  return {
    db: store.db,
    queue: store.queue,
    ...(store.appendToQueue ? { appendToQueue: store.appendToQueue } : {}),
    dialect: store.dialect,
    telemetry: new KyselyTelemetryReader(store.db),
    issueSearch: new KyselyIssueSearch(store.db, store.dialect),
    directory: new KyselyDirectory(store.db, store.dialect, store.queue),
    publicUrl: "http://telltale.test:8000",
    accounts: new KyselyAccountStore(store.db, store.dialect),
    releases: new KyselyReleaseStore(store.db),
    releaseOrder,
    digestQueue: new KyselyDigestQueue(store, releaseOrder),
    releaseHealth: new KyselyReleaseHealthStore(store.db),
    artifacts: new KyselyArtifactStore(store.db),
    alerts: new KyselyAlertStore(store.db, store.dialect),
    metricAlerts: new KyselyMetricAlertStore(store.db, store.dialect),
    audit: new KyselyAuditLog(store.db),
    mailer: null,
    userNotifications: new KyselyUserNotificationStore(store.db),
    twoFactor: new KyselyTwoFactorStore(store.db),
    secrets: new SecretBox(null),
    now: Date.now,
    webhooks: null,
    limits: { sessionDays: 14, loginMaxFailures: 10, loginAccountMaxFailures: 100, loginWindowSeconds: 900 },
    sso: new KyselySsoStore(store.db),
    secretKey: "test secret key, 32 characters or more",
    ...overrides,
  };
}
