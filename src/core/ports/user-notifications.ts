/**
 * Per-user notification preferences and who takes part in an issue
 * (docs/decisions/0021-workflow-notifications.md). Implemented over the main database by
 * src/db/user-notifications-store.ts; an outbox consumer gets one bound to its transaction
 * (OutboxTxPorts, ./outbox.ts).
 */
import type { Recipient } from "./alerts";

/** The kinds of email a person may switch off: issue alerts, and the three workflow kinds. */
export const NOTIFICATION_TOPICS = ["issueAlerts", "assigned", "comments", "resolutions"] as const;
export type NotificationTopic = (typeof NOTIFICATION_TOPICS)[number];

export type NotificationChoices = Record<NotificationTopic, boolean>;

/** Everything on: what a person gets before they choose (Sentry's defaults). */
export const DEFAULT_CHOICES: NotificationChoices = { issueAlerts: true, assigned: true, comments: true, resolutions: true };

/** A project whose issue alerts a person set apart from their own choice. */
export interface ProjectAlertChoice {
  projectId: number;
  issueAlerts: boolean;
}

export interface NotificationPreferences {
  choices: NotificationChoices;
  projects: ProjectAlertChoice[];
}

/** Why a participant hears about an issue (Sentry's subscription reasons, in part). */
export type ParticipationReason = "assignee" | "team" | "commenter" | "bookmark";

export interface Participant extends Recipient {
  reason: ParticipationReason;
}

/** The outbox change an email is about, as the workflow email tells it. */
export interface ChangeFacts {
  data: Record<string, unknown>;
  actorName: string | null;
  actorEmail: string | null;
}

export interface UserNotificationStore {
  preferences(userId: number): Promise<NotificationPreferences>;
  setChoices(userId: number, choices: NotificationChoices, now: number): Promise<void>;
  /** `null` removes the project's override: the person's own choice holds there again. */
  setProjectAlerts(userId: number, projectId: number, issueAlerts: boolean | null, now: number): Promise<void>;
  /**
   * Of `userIds`, those who switched `topic` off where `projectId` is concerned: a project
   * override decides first (issue alerts only), then their own choice; no row is "on".
   */
  optedOut(userIds: readonly number[], topic: NotificationTopic, projectId: number): Promise<Set<number>>;

  /**
   * Who takes part in the issue, members of its organization only: its assignee (or the members
   * of its assigned team), those who commented on it in changes before `beforeSeq`, and those
   * who bookmarked it. Each person once, with the first reason in that order.
   */
  participants(issueId: number, beforeSeq: number): Promise<Participant[]>;
  /** The person an assignment names, or the members of its team; members of the issue's organization only. */
  assignees(issueId: number, assignee: { userId: number | null; teamId: number | null }): Promise<Participant[]>;
  /** The outbox change with its author's name and email; null once it is gone. */
  change(seq: number): Promise<ChangeFacts | null>;
}
