import type { Mailer } from "./email/mailer";
import type { Directory } from "./ports/directory";
import type { AccountStore } from "./ports/accounts";
import type { IssueSearch } from "./ports/issue-search";
import type { TelemetryReader } from "./ports/telemetry-read";
import type { ArtifactStore } from "./ports/artifacts";
import type { ReleaseStore } from "./ports/releases";
import type { ReleaseOrder } from "./ports/release-order";
import type { ReleaseHealthStore } from "./ports/release-health";
import type { AlertStore } from "./ports/alerts";
import type { DigestQueue } from "./ports/digest-queue";
import type { WebhookPoster } from "./ports/webhooks";
import type { MetricAlertStore } from "./ports/metric-alerts";
import type { UserNotificationStore } from "./ports/user-notifications";
import type { AuditLog } from "./ports/audit";
import type { TwoFactorStore } from "./ports/two-factor";
import type { SecretBox } from "./crypto/secret-box";
import type { SsoStore } from "./ports/sso";
import type { IssueTriage } from "./ports/issue-triage";
import type { IssueReader } from "./ports/issue-reader";
import type { IssueWindowCounts } from "./ports/window-counts";
import type { GroupingRuleStore } from "./ports/grouping-rules";
import type { ProjectStore } from "./ports/projects";
import type { ProjectKeyStore } from "./ports/project-keys";
import type { OutcomeStore } from "./ports/outcomes";
import type { TokenStore } from "./ports/tokens";
import type { OrganizationStore } from "./ports/organizations";
import type { PaletteLookup } from "./ports/palette-lookup";
import type { DeadLetterStore } from "./ports/dead-letters";
import type { IngestQueue } from "./ports/ingest-queue";
import type { AttachmentUploads } from "./ports/attachment-uploads";
import type { OutboxStore } from "./ports/outbox";
import type { RetentionStore } from "./ports/retention";
import type { DiscoverReader } from "./ports/discover";

/** What every core action receives besides its input: storage, the public URL and named limits. */
export interface Ctx {
  /** Telemetry as core reads it back (src/core/ports/telemetry-read.ts), outside any transaction on `db`. */
  telemetry: TelemetryReader;
  /** The issue stream's search (src/core/ports/issue-search.ts), outside any transaction on `db`. */
  issueSearch: IssueSearch;
  /** Discover's tables and series over a dataset (src/core/ports/discover.ts). */
  discover: DiscoverReader;
  /** Memberships, teams and invitations (src/core/ports/directory.ts). */
  directory: Directory;
  publicUrl: string;
  /** Password resets, sessions and users (src/core/ports/accounts.ts). */
  accounts: AccountStore;
  /** Releases, deploys, repositories and commits (src/core/ports/releases.ts). */
  releases: ReleaseStore;
  /**
   * Release first-seen times for release order (src/core/ports/release-order.ts), cached across
   * batches (the stores that write in a transaction bind their own to it).
   */
  releaseOrder: ReleaseOrder;
  /** Sessions per release: counts, users and errored sessions (src/core/ports/release-health.ts). */
  releaseHealth: ReleaseHealthStore;
  /** Uploaded chunks and artifact bundles for source maps (src/core/ports/artifacts.ts). */
  artifacts: ArtifactStore;
  /** Issue alert rules and notifications (src/core/ports/alerts.ts); an outbox consumer gets its own in OutboxTxPorts. */
  alerts: AlertStore;
  /** Where accepted envelopes wait for the digest, and how a batch is taken and written (src/core/ports/digest-queue.ts). */
  digestQueue: DigestQueue;
  /** Metric alert rules, their evaluations and notifications (src/core/ports/metric-alerts.ts). */
  metricAlerts: MetricAlertStore;
  /** The organizations' audit log (src/core/ports/audit.ts): append-only. */
  audit: AuditLog;
  /** Outgoing email (src/core/email/mailer.ts); null when no SMTP server is configured. */
  mailer: Mailer | null;
  /** Per-user notification preferences and issue participants (src/core/ports/user-notifications.ts); an outbox consumer gets its own in OutboxTxPorts. */
  userNotifications: UserNotificationStore;
  /** TOTP secrets, recovery codes and pending sign-ins (src/core/ports/two-factor.ts). */
  twoFactor: TwoFactorStore;
  /** Seals stored secrets with TELLTALE_SECRET_KEY when it is set (src/core/crypto/secret-box.ts). */
  secrets: SecretBox;
  now: () => number;
  /** Alert webhooks, Slack and Discord (src/server/webhook-client.ts); null in processes that send no alerts. */
  webhooks: WebhookPoster | null;
  limits: {
    sessionDays: number;
    loginMaxFailures: number;
    /** Failed sign-ins per account from all addresses together (decision 0007). */
    loginAccountMaxFailures: number;
    loginWindowSeconds: number;
  };
  /** OpenID providers and identities of single sign-on (src/core/ports/sso.ts). */
  sso: SsoStore;
  /** A person's changes, merges and unmerges of issues, each one transaction (src/core/ports/issue-triage.ts). */
  issueTriage: IssueTriage;
  /** What issue pages and lists read about issues (src/core/ports/issue-reader.ts). */
  issueReader: IssueReader;
  /** The buckets frequency conditions count from, outside the digest (src/core/ports/window-counts.ts). */
  windowCounts: IssueWindowCounts;
  /** Projects' fingerprint rules (src/core/ports/grouping-rules.ts). */
  groupingRules: GroupingRuleStore;
  /** Projects, their grouping version, ingest options, quotas and first issue (src/core/ports/projects.ts). */
  projects: ProjectStore;
  /** Projects' DSN keys and their rate limits (src/core/ports/project-keys.ts). */
  projectKeys: ProjectKeyStore;
  /** Outcome counts per hour, written and read back (src/core/ports/outcomes.ts). */
  outcomes: OutcomeStore;
  /** Personal and organization API tokens (src/core/ports/tokens.ts). */
  tokens: TokenStore;
  /** Organizations: finding, creating and renaming them (src/core/ports/organizations.ts). */
  organizations: OrganizationStore;
  /** The command palette's reads by id, prefix and title words (src/core/ports/palette-lookup.ts). */
  paletteLookup: PaletteLookup;
  /** Envelopes the digest set aside, their retry and deletion (src/core/ports/dead-letters.ts). */
  deadLetters: DeadLetterStore;
  /** The ingest queue as the request path writes it, with COPY on PostgreSQL (src/core/ports/ingest-queue.ts). */
  ingestQueue: IngestQueue;
  /** Attachments as ingest stores them before their envelope is kept (src/core/ports/attachment-uploads.ts). */
  attachmentUploads: AttachmentUploads;
  /** Consumer positions of the issue-change outbox, and a consumer's batch in one transaction (src/core/ports/outbox.ts). */
  outbox: OutboxStore;
  /** Retention's deletions, one kind and one batch at a time (src/core/ports/retention.ts). */
  retention: RetentionStore;
}
