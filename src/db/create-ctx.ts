import type { Settings } from "../config/settings";
import type { Store } from "./connect";
import { KyselyAccountStore } from "./account-store";
import { KyselyIssueSearch } from "./issue-search";
import { KyselyTelemetryReader } from "./telemetry-read";
import { KyselyDirectory } from "./directory";
import { KyselyArtifactStore } from "./artifact-store";
import { KyselyReleaseHealthStore } from "./release-health-store";
import { KyselyReleaseStore } from "./release-store";
import { KyselyDigestQueue } from "./digest-queue";
import { KyselyReleaseOrder } from "./release-order";
import { KyselyAlertStore } from "./alerts-store";
import { KyselyMetricAlertStore } from "./metric-alerts-store";
import { KyselyUserNotificationStore } from "./user-notifications-store";
import { KyselyAuditLog } from "./audit-store";
import { KyselyTwoFactorStore } from "./two-factor-store";
import { SecretBox } from "../core/crypto/secret-box";
import { KyselySsoStore } from "./sso-store";
import { KyselyIssueTriage } from "./issue-triage-store";
import { KyselyIssueReader } from "./issue-reader";
import { KyselyWindowCounts } from "./window-counts";
import { KyselyGroupingRuleStore } from "./grouping-rules-store";
import { KyselyProjectStore } from "./project-store";
import { KyselyProjectKeyStore } from "./project-key-store";
import { KyselyOutcomeStore } from "./outcome-store";
import { KyselyTokenStore } from "./token-store";
import { KyselyOrganizationStore } from "./organization-store";
import { KyselyPaletteLookup } from "./palette-lookup";
import { KyselyDeadLetterStore } from "./dead-letter-store";
import { KyselyIngestQueue } from "./ingest-queue";
import { KyselyAttachmentUploads } from "./attachment-uploads";
import { KyselyOutboxStore } from "./outbox-store";
import { KyselyRetentionStore } from "./retention-store";
import { KyselyDiscoverReader } from "./discover-reader";
import type { Ctx } from "../core/context";
import type { Mailer } from "../core/email/mailer";

/** The settings the context reads: the public URL, the secret key and the sign-in limits. */
export type CtxSettings = Pick<
  Settings,
  "publicUrl" | "secretKey" | "sessionDays" | "loginMaxFailures" | "loginAccountMaxFailures" | "loginWindowSeconds"
>;

/**
 * The composition root: the context core actions run in, from the settings and an open store.
 * The server, the digest, the CLI, the benches and the tests all build it here, so a port added
 * to `Ctx` is wired once. The mailer is made by the processes that send email (src/server/mailer.ts).
 */
export function createCtx(settings: CtxSettings, store: Store, mailer: Mailer | null = null): Ctx {
  const releaseOrder = new KyselyReleaseOrder(store.db);
  return {
    telemetry: new KyselyTelemetryReader(store.db),
    issueSearch: new KyselyIssueSearch(store.db, store.dialect),
    discover: new KyselyDiscoverReader(store.db, store.dialect),
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
    issueTriage: new KyselyIssueTriage(store.db, releaseOrder),
    issueReader: new KyselyIssueReader(store.db),
    windowCounts: new KyselyWindowCounts(store.db),
    groupingRules: new KyselyGroupingRuleStore(store.db),
    projects: new KyselyProjectStore(store.db),
    projectKeys: new KyselyProjectKeyStore(store.db),
    outcomes: new KyselyOutcomeStore(store.db),
    tokens: new KyselyTokenStore(store.db),
    organizations: new KyselyOrganizationStore(store.db),
    paletteLookup: new KyselyPaletteLookup(store.db, store.dialect),
    deadLetters: new KyselyDeadLetterStore(store.db, store.queue, store.dialect),
    ingestQueue: new KyselyIngestQueue(store.queue, store.dialect, store.appendToQueue),
    attachmentUploads: new KyselyAttachmentUploads(store.db),
    outbox: new KyselyOutboxStore(store.db, store.dialect),
    retention: new KyselyRetentionStore(store.db, store.dialect),
  };
}
