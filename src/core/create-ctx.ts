import type { Settings } from "../config/settings";
import type { Store } from "../db/connect";
import { KyselyAccountStore } from "../db/account-store";
import { KyselyIssueSearch } from "../db/issue-search";
import { KyselyTelemetryReader } from "../db/telemetry-read";
import { KyselyDirectory } from "../db/directory";
import { KyselyArtifactStore } from "../db/artifact-store";
import { KyselyReleaseHealthStore } from "../db/release-health-store";
import { KyselyReleaseStore } from "../db/release-store";
import { KyselyReleaseOrder } from "../db/release-order";
import { KyselyAlertStore } from "../db/alerts-store";
import { KyselySsoStore } from "../db/sso-store";
import type { Ctx } from "./context";
import type { Mailer } from "./email/mailer";

/**
 * The context core actions run in, from the process settings and an open store. The mailer is
 * made outside core (src/server/mailer.ts) by the processes that send email.
 */
export function createCtx(settings: Settings, store: Store, mailer: Mailer | null = null): Ctx {
  return {
    db: store.db,
    queue: store.queue,
    dialect: store.dialect,
    telemetry: new KyselyTelemetryReader(store.db),
    issueSearch: new KyselyIssueSearch(store.db, store.dialect),
    directory: new KyselyDirectory(store.db, store.dialect, store.queue),
    publicUrl: settings.publicUrl,
    accounts: new KyselyAccountStore(store.db, store.dialect),
    releases: new KyselyReleaseStore(store.db),
    releaseOrder: new KyselyReleaseOrder(store.db),
    releaseHealth: new KyselyReleaseHealthStore(store.db),
    artifacts: new KyselyArtifactStore(store.db),
    alerts: new KyselyAlertStore(store.db, store.dialect),
    mailer,
    now: Date.now,
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
