/**
 * The issue state machine: what new events and what people do make of an issue's state, and
 * which change (docs/decisions/0010-issue-changes-outbox.md) each transition reports. Pure — no
 * storage, no clock: the digest (assign.ts) and triage (triage.ts) apply its answers in their
 * own transactions and write the change to the outbox with them, so both agree on every rule.
 */
import type { IssueChangeKind } from "../outbox/changes";

export type IssueStatus = "unresolved" | "resolved" | "ignored";

/** The part of an issue the state machine reads and writes (the issue row's column names). */
export interface IssueState {
  status: IssueStatus;
  /** Sentry's substatus: `new`, `ongoing`, `regressed`, `escalating`, `resolved`, `archived_…`, `merged`. */
  substatus: string;
  times_seen: number;
  user_count: number;
  last_release: string | null;
  resolved_at: number | null;
  resolved_in_release: string | null;
  /** 1 when resolved "in the next release": events of `resolved_in_release` itself are held back too. */
  resolved_next_release: number;
  ignore_until: number | null;
  ignore_count: number | null;
  ignore_users: number | null;
  ignore_baseline_count: number | null;
  ignore_baseline_users: number | null;
  assignee_id: number | null;
  /** Assigned to a team instead; triage sets it, at most one of the two is set. */
  assignee_team_id?: number | null;
}

export interface StateChange {
  kind: IssueChangeKind;
  data: Record<string, unknown>;
}

/** The columns to set (nothing when the state stays) and the change to report (null for none). */
/**
 * Orders an event's release against the release an issue was resolved in: negative when older,
 * zero when the same, positive when newer, null when nothing orders them. The digest builds it
 * from versions and first-seen times (releases.ts `releaseOrder`); the state machine only asks.
 */
export type ReleaseComparator = (a: string, b: string) => number | null;

export interface Transition {
  set: Partial<IssueState>;
  change: StateChange | null;
}

const CLEAR_RESOLUTION = { resolved_at: null, resolved_in_release: null, resolved_next_release: 0 } as const;
const CLEAR_IGNORE = {
  ignore_until: null,
  ignore_count: null,
  ignore_users: null,
  ignore_baseline_count: null,
  ignore_baseline_users: null,
} as const;

/** An issue neither resolved, ignored nor assigned: what a new issue starts from. */
export const UNTRIAGED = { ...CLEAR_RESOLUTION, ...CLEAR_IGNORE, assignee_id: null } as const;

/** What a batch of new events brings to one issue. */
export interface Arrivals {
  /** The issue's counts with the batch's events added. */
  timesSeen: number;
  userCount: number;
  /** The newest event's time (ms), release and id. */
  lastSeen: number;
  release: string | null;
  eventId: string;
}

/**
 * New events for an issue (Sentry's rules): a resolved issue regresses unless the events come
 * from a release it was resolved for; an ignored issue comes back when its time has run out
 * (`unignored`) or its count of events or users is reached (`escalating`); a new issue's second
 * batch makes it `ongoing`. `isNew` is true for the batch that created the issue; `order` says
 * whether the events' release is older than the one the issue was resolved in.
 */
export function onArrivals(before: IssueState, arrivals: Arrivals, now: number, isNew: boolean, order: ReleaseComparator): Transition {
  if (isNew) return { set: {}, change: { kind: "created", data: {} } };
  const set: Partial<IssueState> = {};
  if (before.substatus === "new") set.substatus = "ongoing";
  if (before.status === "resolved" && arrivals.lastSeen > (before.resolved_at ?? 0) && regresses(before, arrivals.release, order)) {
    return {
      set: { ...set, status: "unresolved", substatus: "regressed", ...CLEAR_RESOLUTION },
      change: { kind: "regressed", data: { release: arrivals.release, event_id: arrivals.eventId } },
    };
  }
  if (before.status === "ignored") {
    const kind = ignoreEnded(before, arrivals, now);
    if (kind)
      return {
        set: { ...set, status: "unresolved", substatus: "escalating", ...CLEAR_IGNORE },
        change: { kind, data: { event_id: arrivals.eventId } },
      };
  }
  return { set, change: null };
}

/**
 * A resolved issue regresses on a new event, except one from a release older than the
 * release it was resolved in (and, when resolved "in the next release", from that release
 * itself or older), in release order.
 */
function regresses(issue: IssueState, release: string | null, compare: ReleaseComparator): boolean {
  if (!issue.resolved_in_release || !release) return true;
  const order = compare(release, issue.resolved_in_release);
  // Releases nothing orders: nothing says the event is older.
  if (order === null) return true;
  return issue.resolved_next_release ? order > 0 : order >= 0;
}

function ignoreEnded(issue: IssueState, arrivals: Arrivals, now: number): "unignored" | "escalating" | null {
  if (issue.ignore_until !== null && now >= issue.ignore_until) return "unignored";
  if (issue.ignore_count !== null && arrivals.timesSeen - (issue.ignore_baseline_count ?? 0) >= issue.ignore_count) return "escalating";
  if (issue.ignore_users !== null && arrivals.userCount - (issue.ignore_baseline_users ?? 0) >= issue.ignore_users) return "escalating";
  return null;
}

/** What a person does to an issue (triage), validated. */
export type TriageAction =
  | { action: "resolve" }
  /** `current`: the release held back (triage looks it up); the release last seen when not given. */
  | { action: "resolveInNextRelease"; current?: string | null }
  | { action: "resolveInRelease"; release: string }
  | { action: "unresolve" }
  | { action: "ignore"; forever: true }
  | { action: "ignore"; minutes: number }
  | { action: "ignore"; count: number }
  | { action: "ignore"; users: number }
  | { action: "assign"; assigneeId: number | null; teamId?: number | null | undefined }
  | { action: "comment"; text: string };

/**
 * A person's action. Resolving records how (`mode`: now, in the next release — held back for
 * the release last seen — or in a named release); ignoring records until when, with the counts
 * it started from; every action reports its change, even one that leaves the state as it was
 * (resolving a resolved issue is still someone resolving it).
 */
export function onTriage(before: IssueState, action: TriageAction, now: number): Transition {
  const resolved = { status: "resolved" as const, substatus: "resolved", resolved_at: now, ...CLEAR_IGNORE };
  switch (action.action) {
    case "resolve":
      return {
        set: { ...resolved, resolved_in_release: null, resolved_next_release: 0 },
        change: { kind: "resolved", data: { mode: "now" } },
      };
    case "resolveInNextRelease": {
      const current = action.current === undefined ? before.last_release : action.current;
      return {
        set: { ...resolved, resolved_in_release: current, resolved_next_release: 1 },
        change: { kind: "resolved", data: { mode: "next_release", current_release: current } },
      };
    }
    case "resolveInRelease":
      return {
        set: { ...resolved, resolved_in_release: action.release, resolved_next_release: 0 },
        change: { kind: "resolved", data: { mode: "release", release: action.release } },
      };
    case "unresolve":
      return {
        set: { status: "unresolved", substatus: "ongoing", ...CLEAR_RESOLUTION, ...CLEAR_IGNORE },
        change: { kind: "unresolved", data: {} },
      };
    case "ignore": {
      const base = { status: "ignored" as const, ...CLEAR_RESOLUTION, ...CLEAR_IGNORE };
      const until = { ...base, substatus: "archived_until_condition_met" };
      if ("forever" in action)
        return { set: { ...base, substatus: "archived_forever" }, change: { kind: "ignored", data: { until: "forever" } } };
      if ("minutes" in action)
        return {
          set: { ...until, ignore_until: now + action.minutes * 60_000 },
          change: { kind: "ignored", data: { minutes: action.minutes } },
        };
      if ("count" in action)
        return {
          set: { ...until, ignore_count: action.count, ignore_baseline_count: before.times_seen },
          change: { kind: "ignored", data: { count: action.count } },
        };
      return {
        set: { ...until, ignore_users: action.users, ignore_baseline_users: before.user_count },
        change: { kind: "ignored", data: { users: action.users } },
      };
    }
    case "assign":
      // A team or a person, never both (Sentry's `assignedTo` is one actor).
      if (action.teamId != null)
        return {
          set: { assignee_id: null, assignee_team_id: action.teamId },
          change: { kind: "assigned", data: { assignee_id: null, assignee_team_id: action.teamId } },
        };
      return {
        set: { assignee_id: action.assigneeId, assignee_team_id: null },
        change: { kind: action.assigneeId === null ? "unassigned" : "assigned", data: { assignee_id: action.assigneeId } },
      };
    case "comment":
      return { set: {}, change: { kind: "commented", data: { text: action.text } } };
  }
}
