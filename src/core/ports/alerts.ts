/**
 * Issue alerts' storage: rules, the notifications the outbox consumer makes of them, and
 * their delivery (./delivery.ts). Implemented over the main database by src/db/alerts-store.ts;
 * the outbox consumer gets one bound to its transaction (OutboxTxPorts, ./outbox.ts).
 */
import type { WindowCount } from "../alerts/frequency-conditions";
import type { AlertRule, Channel, ValidRule } from "../alerts/rule-schema";
import type { AttemptRecord, DeliveryQueue, DeliveryState } from "./delivery";

export interface Recipient {
  userId: number;
  email: string;
}

/** What the consumer reads of an issue to evaluate rules. */
export interface AlertIssue {
  id: number;
  projectId: number;
  organizationId: number;
  level: string;
  environment: string | null;
  /** What filters read of the issue (decision 0019). */
  firstSeen: number;
  lastRelease: string | null;
  assigneeId: number | null;
  assigneeTeamId: number | null;
}

export interface NewNotification {
  id: string;
  projectId: number;
  ruleId: number;
  issueId: number;
  changeSeq: number;
  changeKind: string;
  /** Email, or a web channel (decision 0018). */
  channel: Channel;
  /** The email address, or the URL a web channel posts to. */
  target: string;
  /** The person an email goes to; null for the web channels. */
  userId: number | null;
  createdAt: number;
}

export interface NotificationRecord extends NewNotification, DeliveryState {}

/** A notification as the Alerts page lists it, with its issue's title (null once the issue is gone). */
export interface NotificationEntry extends NotificationRecord {
  issueTitle: string | null;
}

/** What an alert email says about its issue. */
export interface AlertEmailFacts {
  issueId: number;
  shortNumber: number;
  title: string;
  culprit: string;
  level: string;
  firstSeen: number;
  lastSeen: number;
  timesSeen: number;
  projectSlug: string;
  projectName: string;
  orgSlug: string;
  ruleName: string | null;
  /** Distinct users affected, and the secret the rule signs its webhooks with (null once the rule is gone). */
  userCount: number;
  ruleSecret: string | null;
}

export interface AlertStore extends DeliveryQueue<NewNotification> {
  rules(projectId: number): Promise<AlertRule[]>;
  rule(projectId: number, id: number): Promise<AlertRule | null>;
  insertRule(projectId: number, rule: ValidRule, meta: { isDefault: boolean; createdBy: number | null; now: number }): Promise<AlertRule>;
  updateRule(projectId: number, id: number, rule: ValidRule, now: number): Promise<AlertRule | null>;
  deleteRule(projectId: number, id: number): Promise<boolean>;

  /** The issue the change is about; null once it is gone. */
  issue(issueId: number): Promise<AlertIssue | null>;
  /** Events and distinct users of the issue in the `minutes` up to `at` (src/core/issues/window-counts.ts). */
  windowCounts(issueId: number, minutes: number, at: number): Promise<WindowCount>;
  /** The project's newest release (by creation), for the latest-release filter. */
  latestRelease(projectId: number): Promise<string | null>;
  /** Members of the project's teams. */
  projectMembers(projectId: number): Promise<Recipient[]>;
  /** Members of a team of the organization (none when the team is elsewhere). */
  teamMembers(organizationId: number, teamId: number): Promise<Recipient[]>;
  /** A member of the organization (none when the user is not one). */
  member(organizationId: number, userId: number): Promise<Recipient[]>;
  /**
   * Records that the rule fires for the issue because of change `seq` at `at`, unless it fired
   * for another change less than `frequencyMs` before; answers whether it fires. The same change
   * read again gets the same answer.
   */
  claimFire(ruleId: number, issueId: number, seq: number, at: number, frequencyMs: number): Promise<boolean>;

  emailFacts(notification: NotificationRecord): Promise<AlertEmailFacts | null>;
  /** Newest first, at most 500. */
  notifications(filter: { projectId?: number; issueId?: number }): Promise<NotificationEntry[]>;
  attempts(notificationId: string): Promise<AttemptRecord[]>;
  /** The attempts of several notifications, in attempt order (the Alerts page's history). */
  attemptsOf(notificationIds: readonly string[]): Promise<AttemptRecord[]>;
  /** The project's newest issue that still has an event ("Test this rule"); null when there is none. */
  newestIssue(projectId: number): Promise<number | null>;
}
