/**
 * Issue alerts from the issue-change outbox (docs/decisions/0017-alert-delivery.md): for each
 * change a rule can be about, the project's active rules that fire (conditions, filters,
 * environment, `frequency`) become one notification row per recipient, in the transaction that
 * moves this consumer's position. Notification ids come from the change's id, the rule and the
 * recipient, and inserting one that exists does nothing: a change read twice (a position rolled
 * back by hand, a second process) never makes a second email. Sending is the sender's (./send.ts).
 */
import type { Ctx } from "../context";
import type { InDatabaseConsumer } from "../outbox/consume";
import type { IssueChangeRecord } from "../outbox/changes";
import type { AlertStore, NewNotification, Recipient } from "../ports/alerts";
import { ALERTING_KINDS, ruleFires } from "./evaluate";
import type { Action, AlertRule } from "./rule-schema";
import { withoutOptedOut } from "../preferences/opt-out";

export const ALERTS_CONSUMER = "alerts";

/** The stable id of one notification: the change's outbox id, the rule and the recipient. */
export function notificationId(changeId: string, ruleId: number, userId: number): string {
  return `${changeId}.rule-${ruleId}.user-${userId}`;
}

async function recipientsOf(store: AlertStore, action: Action, projectId: number, organizationId: number): Promise<Recipient[]> {
  // No ownership rules yet: the issue's owners are the project's members (Sentry's fallthrough).
  if (action.targetType === "IssueOwners") return action.fallthroughType === "NoOne" ? [] : store.projectMembers(projectId);
  if (action.targetType === "Team") return store.teamMembers(organizationId, action.targetIdentifier);
  return store.member(organizationId, action.targetIdentifier);
}

/** The notifications one change makes; `at` is when they become due. */
export async function notificationsFor(store: AlertStore, change: IssueChangeRecord, rules: readonly AlertRule[], at: number) {
  const issue = await store.issue(change.issueId);
  if (!issue) return [];
  const out: NewNotification[] = [];
  for (const rule of rules) {
    if (!ruleFires(rule, change.kind, issue)) continue;
    if (!(await store.claimFire(rule.id, issue.id, change.seq, change.at, rule.frequency * 60_000))) continue;
    const seen = new Set<number>();
    for (const action of rule.actions)
      for (const r of await recipientsOf(store, action, issue.projectId, issue.organizationId)) {
        if (seen.has(r.userId)) continue;
        seen.add(r.userId);
        out.push({
          id: notificationId(change.id, rule.id, r.userId),
          projectId: issue.projectId,
          ruleId: rule.id,
          issueId: issue.id,
          changeSeq: change.seq,
          changeKind: change.kind,
          userId: r.userId,
          email: r.email,
          createdAt: at,
        });
      }
  }
  return out;
}

export const alertConsumer: InDatabaseConsumer = {
  name: ALERTS_CONSUMER,
  inDatabase: true,
  async handle(trx, changes, ctx: Ctx) {
    const relevant = changes.filter((c) => ALERTING_KINDS.has(c.kind));
    if (relevant.length === 0) return;
    const store = ctx.alerts.within(trx);
    const rulesOf = new Map<number, AlertRule[]>();
    const now = ctx.now();
    for (const change of relevant) {
      let rules = rulesOf.get(change.projectId);
      if (!rules) rulesOf.set(change.projectId, (rules = (await store.rules(change.projectId)).filter((r) => r.status === "active")));
      if (rules.length === 0) continue;
      const rows = await notificationsFor(store, change, rules, now);
      // People who switched issue alerts off (for this project, or everywhere) are not emailed.
      await store.insertNotifications(await withoutOptedOut(ctx.userNotifications.within(trx), change.projectId, rows));
    }
  },
};
