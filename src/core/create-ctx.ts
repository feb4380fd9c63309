import type { Settings } from "../config/settings";
import type { Store } from "../db/connect";
import { KyselyAccountStore } from "../db/account-store";
import { KyselyIssueSearch } from "../db/issue-search";
import { KyselyTelemetryReader } from "../db/telemetry-read";
import { KyselyDirectory } from "../db/directory";
import { KyselyArtifactStore } from "../db/artifact-store";
import { KyselyReleaseHealthStore } from "../db/release-health-store";
import { KyselyReleaseStore } from "../db/release-store";
import { KyselyDigestQueue } from "../db/digest-queue";
import { KyselyReleaseOrder } from "../db/release-order";
import { KyselyAlertStore } from "../db/alerts-store";
import { KyselyMetricAlertStore } from "../db/metric-alerts-store";
import { KyselyUserNotificationStore } from "../db/user-notifications-store";
import { KyselyAuditLog } from "../db/audit-store";
import { KyselyTwoFactorStore } from "../db/two-factor-store";
import { SecretBox } from "./crypto/secret-box";
import { KyselySsoStore } from "../db/sso-store";
import type { Ctx } from "./context";
import type { Mailer } from "./email/mailer";

/**
 * The context core actions run in, from the process settings and an open store. The mailer is
 * made outside core (src/server/mailer.ts) by the processes that send email.
 */
export function createCtx(settings: Settings, store: Store, mailer: Mailer | null = null): Ctx {
  const releaseOrder = new KyselyReleaseOrder(store.db);
  return {
    db: store.db,
    queue: store.queue,
    ...(store.appendToQueue ? { appendToQueue: store.appendToQueue } : {}),
    dialect: store.dialect,
    telemetry: new KyselyTelemetryReader(store.db),
    issueSearch: new KyselyIssueSearch(store.db, store.dialect),
    directory: new KyselyDirectory(store.db, store.dialect, store.queue),
    publicUrl: settings.publicUrl,
    accounts: new KyselyAccountStore(store.db, store.dialect),
    releases: new KyselyReleaseStore(store.db),
    releaseOrder,
    digestQueue: new KyselyDigestQueue(store, releaseOrder),
    releaseHealth: new KyselyReleaseHealthStore(store.db),
    artifacts: new KyselyArtifactStore(store.db),
    alerts: new KyselyAlertStore(store.db, store.dialect),
    metricAlerts: new KyselyMetricAlertStore(store.db, store.dialect),
    audit: new KyselyAuditLog(store.db),
    mailer,
    userNotifications: new KyselyUserNotificationStore(store.db),
    twoFactor: new KyselyTwoFactorStore(store.db),
    secrets: new SecretBox(settings.secretKey),
    now: Date.now,
    webhooks: null,
    limits: {
      sessionDays: settings.sessionDays,
      loginMaxFailures: settings.loginMaxFailures,
      loginAccountMaxFailures: settings.loginAccountMaxFailures,
      loginWindowSeconds: settings.loginWindowSeconds,
    },
    sso: new KyselySsoStore(store.db),
    secretKey: settings.secretKey,
  };
}
