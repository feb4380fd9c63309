import type { IssueFields } from "../grouping/index";
import type { IssueHash, IssueStore, IssueRowUpdate, IssueUpdate, StoredIssueState } from "../ports/issues";
import { releaseKey, type ReleaseOrder, type ReleaseRef } from "../ports/release-order";
import { issueTags, type EventFacts } from "./event-tags";
import { ARRIVING, releaseOrder, type FirstSeen } from "./releases";
import { onArrivals, type ReleaseComparator, type StateChange } from "./state";
import type { WindowSample } from "./window-counts";
import type { NewIssueChange } from "../outbox/changes";
import { changeEvent } from "./change-event";

/** An event ready to be stored, with what grouping decided about it. */
export interface GroupedEvent {
  projectId: number;
  eventId: string;
  facts: EventFacts;
  /** The event's hashes, primary first; an issue is found by any of them. */
  hashes: string[];
  /** A grouping upgrade's previous-version hashes: looked up after `hashes`, never given to a new issue. */
  secondaryHashes: readonly string[];
  config: string;
  issue: IssueFields;
}

interface IssueDelta {
  issueId: number;
  count: number;
  firstSeen: number;
  lastSeen: number;
  last: GroupedEvent;
  users: Set<string>;
  tags: Map<string, { key: string; value: string; count: number; first: number; last: number }>;
  hours: Map<number, number>;
}

const HOUR = 3_600_000;

/**
 * Puts each event into its issue, creating issues for new hashes, and updates every
 * affected issue once per batch: counts, first/last seen, releases, distinct users, the
 * tag index, hourly counts, and state changes (regressions, ignores that expired).
 * Runs inside the digest transaction.
 */
/**
 * `order` gives the first-seen times of the releases resolved issues compare (asked once per
 * batch). `lockRows` (PostgreSQL): each issue row is read FOR UPDATE before its counts are added,
 * in issue id order, so that digesters in other processes add to it one after another
 * instead of overwriting each other's counts. SQLite's write transaction excludes them anyway.
 */
export async function assignIssues(
  store: IssueStore,
  grouped: readonly GroupedEvent[],
  now: number,
  order: ReleaseOrder,
  lockRows = false,
): Promise<Map<GroupedEvent, number>> {
  if (grouped.length === 0) return new Map();
  const issueOf = await resolveIssues(store, grouped);
  const deltas = new Map<number, IssueDelta>();
  const samples: WindowSample[] = [];
  const changes: NewIssueChange[] = [];
  for (const g of grouped) {
    const issueId = issueOf.get(g)!;
    const ts = Math.round(g.facts.timestamp * 1000);
    let d = deltas.get(issueId);
    if (!d) {
      d = { issueId, count: 0, firstSeen: ts, lastSeen: ts, last: g, users: new Set(), tags: new Map(), hours: new Map() };
      deltas.set(issueId, d);
    }
    d.count++;
    d.firstSeen = Math.min(d.firstSeen, ts);
    if (ts >= d.lastSeen) {
      d.lastSeen = ts;
      d.last = g;
    }
    const user = g.facts.user;
    if (user) d.users.add(user);
    samples.push({
      issueId,
      at: ts,
      user: user ?? null,
      projectId: g.projectId,
      environment: g.facts.environment,
      level: g.facts.level,
    });
    for (const [key, value] of issueTags(g.facts)) {
      const k = `${key}\u0000${value}`;
      const t = d.tags.get(k);
      if (t) {
        t.count++;
        t.first = Math.min(t.first, ts);
        t.last = Math.max(t.last, ts);
      } else d.tags.set(k, { key, value, count: 1, first: ts, last: ts });
    }
    const hour = Math.floor(ts / HOUR) * HOUR;
    d.hours.set(hour, (d.hours.get(hour) ?? 0) + 1);
  }

  await applyDeltas(
    { issues: store, order },
    [...deltas.values()].sort((a, b) => a.issueId - b.issueId),
    now,
    lockRows,
    changes,
  );
  await store.addWindowCounts(samples);
  // Last, so the outbox counter is held for as short a time as the transaction allows.
  await store.writeChanges(changes);
  return issueOf;
}

const cmp = (a: string, b: string) => (a < b ? -1 : a > b ? 1 : 0);

/**
 * Adds a batch's deltas to their issues with one statement per table (chunked) rather than
 * several per issue: distinct users, the issue rows read, the issue rows' updates, tags,
 * hourly counts. Rows are written in key
 * order, so that two digesters on PostgreSQL take their locks in the same order.
 */
async function applyDeltas(
  { issues: store, order }: { issues: IssueStore; order: ReleaseOrder },
  deltas: readonly IssueDelta[],
  now: number,
  lockRows: boolean,
  changes: NewIssueChange[],
): Promise<void> {
  const newUsers = await store.addUsers(
    deltas.flatMap((d) => [...d.users].sort(cmp).map((userKey) => ({ issueId: d.issueId, userKey, firstSeen: d.firstSeen }))),
  );
  const before = await store.readIssues(
    deltas.map((d) => d.issueId),
    lockRows,
  );
  // Projects with a frequency alert rule hear of every issue that received events (a `seen` change).
  const counting = await store.projectsCountingEvents([...new Set(deltas.map((d) => d.last.projectId))]);
  const compared = releasesCompared(deltas, before);
  const times = compared.length > 0 ? await order.firstSeen(compared) : new Map<string, FirstSeen>();
  const updates: IssueRowUpdate[] = [];
  for (const d of deltas) {
    const row = before.get(d.issueId);
    if (!row) throw new Error(`issue ${d.issueId} vanished during the digest`);
    const { update, change } = issueUpdate(row, d, newUsers.get(d.issueId) ?? 0, now, comparatorFor(d.last.projectId, row, times));
    updates.push({ id: d.issueId, update });
    const event = changeEvent(d.last.eventId, d.last.facts);
    if (change)
      changes.push({
        projectId: d.last.projectId,
        issueId: d.issueId,
        kind: change.kind,
        data: { ...change.data, event },
        userId: null,
        at: now,
      });
    else if (counting.has(d.last.projectId))
      changes.push({
        projectId: d.last.projectId,
        issueId: d.issueId,
        kind: "seen",
        data: { count: d.count, event },
        userId: null,
        at: now,
      });
  }
  await store.updateIssues(updates);
  await store.addTags(
    deltas.flatMap((d) =>
      [...d.tags.values()]
        .sort((a, b) => cmp(a.key, b.key) || cmp(a.value, b.value))
        .map((t) => ({ issueId: d.issueId, key: t.key, value: t.value, count: t.count, firstSeen: t.first, lastSeen: t.last })),
    ),
  );
  await store.addHours(
    deltas.flatMap((d) => [...d.hours].sort((a, b) => a[0] - b[0]).map(([hour, count]) => ({ issueId: d.issueId, hour, count }))),
  );
}

/**
 * The issue of every event: found by any of its hashes, or created (with its short number)
 * for hashes never seen. Events of one batch that share a hash share the new issue.
 */
async function resolveIssues(store: IssueStore, grouped: readonly GroupedEvent[]): Promise<Map<GroupedEvent, number>> {
  const known = new Map<string, number>(); // `${project}\u0000${hash}` → issue
  const byProject = new Map<number, Set<string>>();
  for (const g of grouped) {
    let set = byProject.get(g.projectId);
    if (!set) byProject.set(g.projectId, (set = new Set()));
    for (const h of g.hashes) set.add(h);
    for (const h of g.secondaryHashes) set.add(h);
  }
  for (const [projectId, hashes] of byProject) {
    for (const [hash, issueId] of await store.issuesByHash(projectId, [...hashes])) known.set(`${projectId}\u0000${hash}`, issueId);
  }
  const out = new Map<GroupedEvent, number>();
  const learned: IssueHash[] = [];
  for (const g of grouped) {
    const key = (h: string) => `${g.projectId}\u0000${h}`;
    const found = [...g.hashes, ...g.secondaryHashes].map((h) => known.get(key(h))).find((id) => id !== undefined);
    if (found !== undefined) {
      // Found by a previous version's hash during a grouping upgrade: the issue learns this
      // version's hashes, so its events match directly once the transition is over.
      for (const h of g.hashes) {
        if (known.has(key(h))) continue;
        known.set(key(h), found);
        learned.push({ projectId: g.projectId, hash: h, issueId: found, config: g.config });
      }
      out.set(g, found);
      continue;
    }
    const issueId = await store.createIssue({
      projectId: g.projectId,
      hashes: g.hashes,
      config: g.config,
      fields: g.issue,
      seenAt: Math.round(g.facts.timestamp * 1000),
      release: g.facts.release,
      environment: g.facts.environment,
    });
    for (const h of g.hashes) known.set(key(h), issueId);
    out.set(g, issueId);
  }
  await store.addHashes(learned);
  return out;
}

/** The releases the state machine may compare: a resolved issue's release and the release of its batch's newest event. */
function releasesCompared(deltas: readonly IssueDelta[], before: ReadonlyMap<number, StoredIssueState>): ReleaseRef[] {
  const refs: ReleaseRef[] = [];
  for (const d of deltas) {
    const row = before.get(d.issueId);
    const release = d.last.facts.release;
    if (row?.status !== "resolved" || !row.resolved_in_release || !release) continue;
    refs.push({ projectId: d.last.projectId, version: row.resolved_in_release }, { projectId: d.last.projectId, version: release });
  }
  return refs;
}

/**
 * Release order for one issue: versions, else first-seen times. A release not created yet is
 * arriving now (ARRIVING), except the one the issue was resolved in, which may never arrive (a
 * name typed by hand): it counts as first seen when the issue was resolved, so releases seen
 * before the resolution are older and releases created after it newer.
 */
function comparatorFor(projectId: number, issue: StoredIssueState, times: ReadonlyMap<string, FirstSeen>): ReleaseComparator {
  return releaseOrder(
    (version) =>
      times.get(releaseKey(projectId, version)) ??
      (version === issue.resolved_in_release && issue.resolved_at !== null ? { at: issue.resolved_at, id: Infinity } : ARRIVING),
  );
}

/** What a delta changes in its issue: its counts and newest event's fields, and the state machine's transition. */
function issueUpdate(
  before: StoredIssueState,
  d: IssueDelta,
  newUsers: number,
  now: number,
  order: ReleaseComparator,
): { update: IssueUpdate; change: StateChange | null } {
  const last = d.last.facts;
  const update: IssueUpdate = {
    times_seen: before.times_seen + d.count,
    user_count: before.user_count + newUsers,
    first_seen: Math.min(before.first_seen, d.firstSeen),
    last_seen: Math.max(before.last_seen, d.lastSeen),
  };
  if (d.lastSeen >= before.last_seen) {
    // As in Sentry, an issue shows its newest event's title, culprit and level.
    update.last_release = last.release ?? before.last_release;
    update.last_environment = last.environment ?? before.last_environment;
    update.level = d.last.issue.level;
    update.title = d.last.issue.title;
    update.culprit = d.last.issue.culprit;
    update.metadata = JSON.stringify(d.last.issue.metadata);
  }
  // A row no event has counted yet was made by this batch (resolveIssues).
  const arrivals = {
    timesSeen: update.times_seen,
    userCount: update.user_count,
    lastSeen: d.lastSeen,
    release: last.release,
    eventId: d.last.eventId,
  };
  const { set, change } = onArrivals(before, arrivals, now, before.times_seen === 0, order);
  return { update: { ...update, ...set }, change };
}
