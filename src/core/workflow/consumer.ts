/**
 * Workflow emails from the issue-change outbox (docs/decisions/0021-workflow-notifications.md):
 * an in-database consumer like the alerts one (../alerts/consumer.ts). An assignment tells the
 * assignee (or the assigned team), a comment and a resolution tell the issue's participants;
 * never the person who made the change, and nobody who switched that kind of email off. Each
 * becomes a notification row, in the transaction that moves this consumer's position, which
 * the alert sender delivers with its retries (../alerts/send.ts): rows without a rule
 * (`WORKFLOW_RULE_ID`), their id made of the change's id and the recipient, so a change read
 * twice makes no second email.
 */
import type { Ctx } from "../context";
import type { InDatabaseConsumer } from "../outbox/consume";
import type { IssueChangeKind, IssueChangeRecord } from "../outbox/changes";
import type { NewNotification } from "../ports/alerts";
import type { NotificationTopic, Participant, UserNotificationStore } from "../ports/user-notifications";

export const WORKFLOW_CONSUMER = "workflow";

/** Workflow notifications share the alert notifications' table and sender; they come from no rule. */
export const WORKFLOW_RULE_ID = 0;

/** The changes that email someone, and the preference that lets them. */
export const WORKFLOW_TOPICS: ReadonlyMap<IssueChangeKind, NotificationTopic> = new Map([
  ["assigned", "assigned"],
  ["commented", "comments"],
  ["resolved", "resolutions"],
]);

export function isWorkflowKind(kind: string): boolean {
  return WORKFLOW_TOPICS.has(kind as IssueChangeKind);
}

export function workflowNotificationId(changeId: string, userId: number): string {
  return `${changeId}.workflow.user-${userId}`;
}

const idOrNull = (value: unknown): number | null => (typeof value === "number" && Number.isInteger(value) ? value : null);

/** Who a change tells, before preferences: the assignee for an assignment, the participants otherwise. */
async function audience(store: UserNotificationStore, change: IssueChangeRecord): Promise<Participant[]> {
  if (change.kind === "assigned")
    return store.assignees(change.issueId, { userId: idOrNull(change.data.assignee_id), teamId: idOrNull(change.data.assignee_team_id) });
  return store.participants(change.issueId, change.seq);
}

/** The notifications one change makes; `at` is when they become due. */
export async function workflowNotificationsFor(store: UserNotificationStore, change: IssueChangeRecord, at: number) {
  const topic = WORKFLOW_TOPICS.get(change.kind);
  if (!topic) return [];
  const told = (await audience(store, change)).filter((p) => p.userId !== change.userId);
  const off = await store.optedOut(
    told.map((p) => p.userId),
    topic,
    change.projectId,
  );
  return told
    .filter((p) => !off.has(p.userId))
    .map((p): NewNotification => ({
      id: workflowNotificationId(change.id, p.userId),
      projectId: change.projectId,
      ruleId: WORKFLOW_RULE_ID,
      issueId: change.issueId,
      changeSeq: change.seq,
      changeKind: change.kind,
      channel: "email",
      target: p.email,
      userId: p.userId,
      createdAt: at,
    }));
}

export const workflowConsumer: InDatabaseConsumer = {
  name: WORKFLOW_CONSUMER,
  inDatabase: true,
  async handle(changes, ports, ctx: Ctx) {
    const relevant = changes.filter((c) => isWorkflowKind(c.kind));
    if (relevant.length === 0) return;
    const now = ctx.now();
    for (const change of relevant)
      await ports.alerts.insertNotifications(await workflowNotificationsFor(ports.userNotifications, change, now));
  },
};
