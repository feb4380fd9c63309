/**
 * Issue alerts from the issue-change outbox (docs/decisions/0017-alert-delivery.md): for each
 * change a rule can be about, the project's active rules that fire (conditions, filters,
 * environment, `frequency`) become one notification row per email recipient and per webhook,
 * Slack or Discord URL (decision 0018), in the transaction that moves this consumer's position.
 * Notification ids come from the change's id, the rule and the recipient or URL, and inserting one
 * that exists does nothing: a change read twice (a position rolled back by hand, a second process)
 * never makes a second notification. Sending is the sender's (./send.ts).
 */
import { createHash } from "node:crypto";
import type { Ctx } from "../context";
import type { InDatabaseConsumer } from "../outbox/consume";
import type { IssueChangeRecord } from "../outbox/changes";
import { readChangeEvent } from "../issues/change-event";
import type { AlertIssue, AlertStore, NewNotification, Recipient } from "../ports/alerts";
import { ALERTING_KINDS, firedOn, intervalsOf, ruleFires, type IssueFacts } from "./evaluate";
import { INTERVALS, type Interval, type WindowCount } from "./frequency-conditions";
import { LATEST_RELEASE_FILTER } from "./issue-filters";
import { actionChannel, actionUrl, EMAIL_ACTION, type AlertRule, type EmailAction } from "./rule-schema";
import { withoutOptedOut } from "../preferences/opt-out";
import type { UserNotificationStore } from "../ports/user-notifications";

export const ALERTS_CONSUMER = "alerts";

/** The stable id of one notification: the change's outbox id, the rule and the recipient. */
export function notificationId(changeId: string, ruleId: number, userId: number): string {
  return `${changeId}.rule-${ruleId}.user-${userId}`;
}

/** The stable id of one web notification: the change, the rule, the channel and its URL (not the action's place in the list, which an edit moves). */
export function webNotificationId(changeId: string, ruleId: number, channel: string, url: string): string {
  return `${changeId}.rule-${ruleId}.${channel}-${createHash("sha256").update(url).digest("hex").slice(0, 16)}`;
}

/**
 * Recipients already looked up in one run of the consumer, by who they are: a burst of new issues
 * in one project asked the same question for each issue (on PostgreSQL, a join planned and run
 * per issue). Members do not change within the run's transaction.
 */
export type RecipientCache = Map<string, Promise<Recipient[]>>;

/** A rule's notifications for one change (or one test, `changeId` `test-…`): one per recipient of its emails, one per URL of its web actions. */
export async function notificationsOfRule(
  store: AlertStore,
  rule: AlertRule,
  issue: AlertIssue,
  change: { id: string; seq: number; kind: string },
  at: number,
  recipients: RecipientCache = new Map(),
): Promise<NewNotification[]> {
  const out: NewNotification[] = [];
  const seen = new Set<string>();
  const base = {
    projectId: issue.projectId,
    ruleId: rule.id,
    issueId: issue.id,
    changeSeq: change.seq,
    changeKind: change.kind,
    createdAt: at,
  };
  for (const action of rule.actions) {
    if (action.id !== EMAIL_ACTION) {
      const channel = actionChannel(action);
      const id = webNotificationId(change.id, rule.id, channel, actionUrl(action));
      if (!seen.has(id)) out.push({ ...base, id, channel, target: actionUrl(action), userId: null });
      seen.add(id);
      continue;
    }
    for (const r of await recipientsOf(store, action, issue.projectId, issue.organizationId, recipients)) {
      const id = notificationId(change.id, rule.id, r.userId);
      if (!seen.has(id)) out.push({ ...base, id, channel: "email", target: r.email, userId: r.userId });
      seen.add(id);
    }
  }
  return out;
}

function recipientsOf(
  store: AlertStore,
  action: EmailAction,
  projectId: number,
  organizationId: number,
  cache: RecipientCache,
): Promise<Recipient[]> {
  // No ownership rules yet: the issue's owners are the project's members (Sentry's fallthrough).
  if (action.targetType === "IssueOwners") {
    if (action.fallthroughType === "NoOne") return Promise.resolve([]);
    return cached(cache, `project ${projectId}`, () => store.projectMembers(projectId));
  }
  if (action.targetType === "Team")
    return cached(cache, `team ${organizationId} ${action.targetIdentifier}`, () =>
      store.teamMembers(organizationId, action.targetIdentifier),
    );
  return cached(cache, `member ${organizationId} ${action.targetIdentifier}`, () => store.member(organizationId, action.targetIdentifier));
}

function cached<T>(cache: Map<string, Promise<T>>, key: string, load: () => Promise<T>): Promise<T> {
  let found = cache.get(key);
  if (!found) cache.set(key, (found = load()));
  return found;
}

/**
 * What the rules read for a change: the issue as it is now, the event the change carries (its
 * tags, release, environment), and, for a change that carries events, the issue's counts over
 * each interval the rules name, up to the change's time (decision 0019).
 */
async function factsFor(store: AlertStore, change: IssueChangeRecord, issue: AlertIssue, rules: readonly AlertRule[]) {
  const event = readChangeEvent(change.data);
  const facts: IssueFacts = {
    level: issue.level,
    environment: event ? event.environment : issue.environment,
    tags: event?.tags ?? [],
    release: event ? event.release : issue.lastRelease,
    latestRelease: rules.some((r) => r.filters.some((f) => f.id === LATEST_RELEASE_FILTER))
      ? await store.latestRelease(issue.projectId)
      : null,
    firstSeen: issue.firstSeen,
    assigneeId: issue.assigneeId,
    assigneeTeamId: issue.assigneeTeamId,
    at: change.at,
  };
  const counts = new Map<Interval, WindowCount>();
  if (event)
    for (const interval of new Set(rules.flatMap(intervalsOf)))
      counts.set(interval, await store.windowCounts(issue.id, INTERVALS[interval], change.at));
  return { facts, countsOf: (interval: Interval) => counts.get(interval) };
}

/** The notifications one change makes; `at` is when they become due. */
export async function notificationsFor(
  store: AlertStore,
  change: IssueChangeRecord,
  rules: readonly AlertRule[],
  at: number,
  recipients: RecipientCache = new Map(),
) {
  const issue = await store.issue(change.issueId);
  if (!issue) return [];
  const { facts, countsOf } = await factsFor(store, change, issue, rules);
  const out: NewNotification[] = [];
  for (const rule of rules) {
    if (!ruleFires(rule, change.kind, facts, countsOf)) continue;
    if (!(await store.claimFire(rule.id, issue.id, change.seq, change.at, rule.frequency * 60_000))) continue;
    out.push(...(await notificationsOfRule(store, rule, issue, { ...change, kind: firedOn(rule, change.kind) }, at, recipients)));
  }
  return out;
}

export const alertConsumer: InDatabaseConsumer = {
  name: ALERTS_CONSUMER,
  inDatabase: true,
  async handle(changes, ports, ctx: Ctx) {
    const relevant = changes.filter((c) => ALERTING_KINDS.has(c.kind));
    if (relevant.length === 0) return;
    const store = ports.alerts;
    const rulesOf = new Map<number, AlertRule[]>();
    const recipients: RecipientCache = new Map();
    const preferences = ports.userNotifications;
    const optedOut = new Map<string, Promise<Set<number>>>();
    // Who switched issue alerts off, asked once per project and set of people in this run.
    const choices: Pick<UserNotificationStore, "optedOut"> = {
      optedOut: (userIds, topic, projectId) =>
        cached(optedOut, `${topic} ${projectId} ${[...userIds].sort((a, b) => a - b).join(",")}`, () =>
          preferences.optedOut(userIds, topic, projectId),
        ),
    };
    const now = ctx.now();
    const rows: NewNotification[] = [];
    for (const change of relevant) {
      let rules = rulesOf.get(change.projectId);
      if (!rules) rulesOf.set(change.projectId, (rules = (await store.rules(change.projectId)).filter((r) => r.status === "active")));
      if (rules.length === 0) continue;
      const made = await notificationsFor(store, change, rules, now, recipients);
      // People who switched issue alerts off (for this project, or everywhere) are not emailed.
      rows.push(...(await withoutOptedOut(choices, change.projectId, made)));
    }
    await store.insertNotifications(rows);
  },
};
