import { sql, type Insertable, type Kysely, type Selectable, type Updateable } from "kysely";
import type { DB } from "../../db/schema";
import type { NormalizedEvent } from "../normalize/types";
import type { IssueFields } from "../grouping/index";
import { eventTags, userKey } from "./event-tags";
import { onArrivals, type StateChange } from "./state";
import { addWindowCounts, type WindowSample } from "./window-counts";
import { writeIssueChanges, type NewIssueChange } from "../outbox/changes";

/** An event ready to be stored, with what grouping decided about it. */
export interface GroupedEvent {
  projectId: number;
  event: NormalizedEvent;
  row: Insertable<DB["events"]>;
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

type IssueRow = Selectable<DB["issues"]>;
type IssueUpdate = Updateable<DB["issues"]>;

const HOUR = 3_600_000;
const CHUNK = 400;

/**
 * Puts each event into its issue, creating issues for new hashes, and updates every
 * affected issue once per batch: counts, first/last seen, releases, distinct users, the
 * tag index, hourly counts, and state changes (regressions, ignores that expired).
 * Runs inside the digest transaction.
 */
/**
 * `lockRows` (PostgreSQL): each issue row is read FOR UPDATE before its counts are added,
 * in issue id order, so that digesters in other processes add to it one after another
 * instead of overwriting each other's counts. SQLite's write transaction excludes them anyway.
 */
export async function assignIssues(trx: Kysely<DB>, grouped: readonly GroupedEvent[], now: number, lockRows = false): Promise<void> {
  if (grouped.length === 0) return;
  const issueOf = await resolveIssues(trx, grouped);
  const deltas = new Map<number, IssueDelta>();
  const samples: WindowSample[] = [];
  const changes: NewIssueChange[] = [];
  for (const g of grouped) {
    const issueId = issueOf.get(g)!;
    g.row.issue_id = issueId;
    g.row.grouping_hash = g.hashes[0] ?? null;
    const ts = Math.round(g.event.timestamp * 1000);
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
    const user = userKey(g.event);
    if (user) d.users.add(user);
    samples.push({ issueId, at: ts, user: user ?? null });
    for (const [key, value] of eventTags(g.event)) {
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
    trx,
    [...deltas.values()].sort((a, b) => a.issueId - b.issueId),
    now,
    lockRows,
    changes,
  );
  await addWindowCounts(trx, samples);
  // Last, so the outbox counter is held for as short a time as the transaction allows.
  await writeIssueChanges(trx, changes);
}

const cmp = (a: string, b: string) => (a < b ? -1 : a > b ? 1 : 0);

/**
 * Adds a batch's deltas to their issues with one statement per table (chunked) rather than
 * several per issue: distinct users, the issue rows read, tags, hourly counts. Only
 * the issue updates are one per issue, each with its own values. Rows are written in key
 * order, so that two digesters on PostgreSQL take their locks in the same order.
 */
async function applyDeltas(
  trx: Kysely<DB>,
  deltas: readonly IssueDelta[],
  now: number,
  lockRows: boolean,
  changes: NewIssueChange[],
): Promise<void> {
  const newUsers = new Map<number, number>();
  const users = deltas.flatMap((d) =>
    [...d.users].sort(cmp).map((user_key) => ({ issue_id: d.issueId, user_key, first_seen: d.firstSeen })),
  );
  for (let i = 0; i < users.length; i += CHUNK) {
    const inserted = await trx
      .insertInto("issue_users")
      .values(users.slice(i, i + CHUNK))
      .onConflict((oc) => oc.columns(["issue_id", "user_key"]).doNothing())
      .returning("issue_id")
      .execute();
    for (const r of inserted) newUsers.set(r.issue_id, (newUsers.get(r.issue_id) ?? 0) + 1);
  }

  const before = new Map<number, IssueRow>();
  const ids = deltas.map((d) => d.issueId);
  for (let i = 0; i < ids.length; i += CHUNK) {
    let read = trx
      .selectFrom("issues")
      .selectAll()
      .where("id", "in", ids.slice(i, i + CHUNK))
      .orderBy("id");
    if (lockRows) read = read.forUpdate();
    for (const row of await read.execute()) before.set(row.id, row);
  }

  for (const d of deltas) {
    const row = before.get(d.issueId);
    if (!row) throw new Error(`issue ${d.issueId} vanished during the digest`);
    const { update, change } = issueUpdate(row, d, newUsers.get(d.issueId) ?? 0, now);
    await trx.updateTable("issues").set(update).where("id", "=", d.issueId).execute();
    if (change) changes.push({ projectId: d.last.projectId, issueId: d.issueId, ...change, userId: null, at: now });
  }

  const tags = deltas.flatMap((d) =>
    [...d.tags.values()]
      .sort((a, b) => cmp(a.key, b.key) || cmp(a.value, b.value))
      .map((t) => ({ issue_id: d.issueId, key: t.key, value: t.value, times_seen: t.count, first_seen: t.first, last_seen: t.last })),
  );
  for (let i = 0; i < tags.length; i += CHUNK) {
    await trx
      .insertInto("issue_tags")
      .values(tags.slice(i, i + CHUNK))
      .onConflict((oc) =>
        oc.columns(["issue_id", "key", "value"]).doUpdateSet({
          times_seen: sql`issue_tags.times_seen + excluded.times_seen`,
          first_seen: sql`case when excluded.first_seen < issue_tags.first_seen then excluded.first_seen else issue_tags.first_seen end`,
          last_seen: sql`case when excluded.last_seen > issue_tags.last_seen then excluded.last_seen else issue_tags.last_seen end`,
        }),
      )
      .execute();
  }

  const hours = deltas.flatMap((d) =>
    [...d.hours].sort((a, b) => a[0] - b[0]).map(([hour, count]) => ({ issue_id: d.issueId, hour, count })),
  );
  for (let i = 0; i < hours.length; i += CHUNK) {
    await trx
      .insertInto("issue_hourly")
      .values(hours.slice(i, i + CHUNK))
      .onConflict((oc) => oc.columns(["issue_id", "hour"]).doUpdateSet({ count: sql`issue_hourly.count + excluded.count` }))
      .execute();
  }
}

/**
 * The issue of every event: found by any of its hashes, or created (with its short number)
 * for hashes never seen. Events of one batch that share a hash share the new issue.
 */
async function resolveIssues(trx: Kysely<DB>, grouped: readonly GroupedEvent[]): Promise<Map<GroupedEvent, number>> {
  const known = new Map<string, number>(); // `${project}\u0000${hash}` → issue
  const byProject = new Map<number, Set<string>>();
  for (const g of grouped) {
    let set = byProject.get(g.projectId);
    if (!set) byProject.set(g.projectId, (set = new Set()));
    for (const h of g.hashes) set.add(h);
    for (const h of g.secondaryHashes) set.add(h);
  }
  for (const [projectId, hashes] of byProject) {
    const all = [...hashes];
    for (let i = 0; i < all.length; i += CHUNK) {
      const rows = await trx
        .selectFrom("issue_hashes")
        .select(["hash", "issue_id"])
        .where("project_id", "=", projectId)
        .where("hash", "in", all.slice(i, i + CHUNK))
        .execute();
      for (const r of rows) known.set(`${projectId}\u0000${r.hash}`, r.issue_id);
    }
  }
  const out = new Map<GroupedEvent, number>();
  const learned: { project_id: number; hash: string; issue_id: number; grouping_config: string }[] = [];
  for (const g of grouped) {
    const key = (h: string) => `${g.projectId}\u0000${h}`;
    const found = [...g.hashes, ...g.secondaryHashes].map((h) => known.get(key(h))).find((id) => id !== undefined);
    if (found !== undefined) {
      // Found by a previous version's hash during a grouping upgrade: the issue learns this
      // version's hashes, so its events match directly once the transition is over.
      for (const h of g.hashes) {
        if (known.has(key(h))) continue;
        known.set(key(h), found);
        learned.push({ project_id: g.projectId, hash: h, issue_id: found, grouping_config: g.config });
      }
      out.set(g, found);
      continue;
    }
    const issueId = await createIssue(trx, g);
    for (const h of g.hashes) known.set(key(h), issueId);
    out.set(g, issueId);
  }
  for (let i = 0; i < learned.length; i += CHUNK) {
    await trx
      .insertInto("issue_hashes")
      .values(learned.slice(i, i + CHUNK))
      .onConflict((oc) => oc.columns(["project_id", "hash"]).doNothing())
      .execute();
  }
  return out;
}

async function createIssue(trx: Kysely<DB>, g: GroupedEvent): Promise<number> {
  const counter = await trx
    .insertInto("project_grouping")
    .values({ project_id: g.projectId, fingerprint_rules: "", next_short_number: 2 })
    .onConflict((oc) => oc.column("project_id").doUpdateSet({ next_short_number: sql`project_grouping.next_short_number + 1` }))
    .returning("next_short_number")
    .executeTakeFirstOrThrow();
  const ts = Math.round(g.event.timestamp * 1000);
  const issue = await trx
    .insertInto("issues")
    .values({
      project_id: g.projectId,
      short_number: counter.next_short_number - 1,
      type: g.issue.type,
      title: g.issue.title,
      culprit: g.issue.culprit,
      level: g.issue.level,
      metadata: JSON.stringify(g.issue.metadata),
      status: "unresolved",
      substatus: "new",
      first_seen: ts,
      last_seen: ts,
      times_seen: 0,
      user_count: 0,
      first_release: g.event.release ?? null,
      last_release: g.event.release ?? null,
      first_environment: g.event.environment ?? null,
      last_environment: g.event.environment ?? null,
      resolved_next_release: 0,
      grouping_config: g.config,
    })
    .returning("id")
    .executeTakeFirstOrThrow();
  const hashes = [...new Set(g.hashes)];
  const claimed = await trx
    .insertInto("issue_hashes")
    .values(hashes.map((hash) => ({ project_id: g.projectId, hash, issue_id: issue.id, grouping_config: g.config })))
    .onConflict((oc) => oc.columns(["project_id", "hash"]).doNothing())
    .returning("hash")
    .execute();
  if (claimed.length === hashes.length) return issue.id;
  // On PostgreSQL another process digesting at the same time created an issue for one of
  // these hashes first (this insert waited for its commit): the event belongs to that issue.
  const taken = await trx
    .selectFrom("issue_hashes")
    .select(["hash", "issue_id"])
    .where("project_id", "=", g.projectId)
    .where("hash", "in", hashes)
    .where("issue_id", "!=", issue.id)
    .execute();
  const owner = hashes.map((h) => taken.find((t) => t.hash === h)?.issue_id).find((id) => id !== undefined);
  if (owner === undefined) return issue.id;
  await trx.deleteFrom("issues").where("id", "=", issue.id).execute();
  return owner;
}

/** What a delta changes in its issue: its counts and newest event's fields, and the state machine's transition. */
function issueUpdate(before: IssueRow, d: IssueDelta, newUsers: number, now: number): { update: IssueUpdate; change: StateChange | null } {
  const last = d.last.event;
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
    timesSeen: Number(update.times_seen),
    userCount: Number(update.user_count),
    lastSeen: d.lastSeen,
    release: last.release ?? null,
    eventId: last.event_id,
  };
  const { set, change } = onArrivals(before, arrivals, now, before.times_seen === 0);
  return { update: { ...update, ...set }, change };
}
