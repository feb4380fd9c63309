import { sql, type Kysely } from "kysely";
import type { WindowSample } from "../core/issues/window-counts";
import { addWindowCounts } from "./window-counts";
import { addMetricCounts } from "./metric-counts";
import type { NewIssueChange } from "../core/outbox/changes";
import { writeIssueChanges } from "./issue-changes";
import type {
  IssueHash,
  IssueHourDelta,
  IssueStore,
  IssueTagDelta,
  IssueRowUpdate,
  IssueUser,
  NewIssue,
  StoredIssueState,
} from "../core/ports/issues";
import type { DB } from "./schema";
import { insertRows, type ConflictClause } from "./bulk-insert";
import { storableRow } from "../core/digest/storable";
import { storableText } from "../core/normalize/values";

/** Rows per statement: well under SQLite's 32,766 bound parameters for the widest of these tables. */
const CHUNK = 400;

const ADD_TAG_COUNTS: ConflictClause<"issue_tags"> = {
  name: "add counts",
  apply: (q) =>
    q.onConflict((oc) =>
      oc.columns(["issue_id", "key", "value"]).doUpdateSet({
        times_seen: sql`issue_tags.times_seen + excluded.times_seen`,
        first_seen: sql`case when excluded.first_seen < issue_tags.first_seen then excluded.first_seen else issue_tags.first_seen end`,
        last_seen: sql`case when excluded.last_seen > issue_tags.last_seen then excluded.last_seen else issue_tags.last_seen end`,
      }),
    ),
};

const ADD_HOUR_COUNTS: ConflictClause<"issue_hourly"> = {
  name: "add counts",
  apply: (q) => q.onConflict((oc) => oc.columns(["issue_id", "hour"]).doUpdateSet({ count: sql`issue_hourly.count + excluded.count` })),
};

/**
 * The IssueStore on the main database, in the transaction it is given, for SQLite and
 * PostgreSQL alike. Rows are written in the order given (the issue step sorts them by key),
 * so two digesters on PostgreSQL take their locks in the same order.
 */
export class KyselyIssueStore implements IssueStore {
  constructor(
    private readonly trx: Kysely<DB>,
    private readonly postgres: boolean,
  ) {}

  async issuesByHash(projectId: number, hashes: readonly string[]): Promise<Map<string, number>> {
    const found = new Map<string, number>();
    for (let i = 0; i < hashes.length; i += CHUNK) {
      const rows = await this.trx
        .selectFrom("issue_hashes")
        .select(["hash", "issue_id"])
        .where("project_id", "=", projectId)
        .where("hash", "in", hashes.slice(i, i + CHUNK))
        .execute();
      for (const r of rows) found.set(r.hash, r.issue_id);
    }
    return found;
  }

  async addHashes(rows: readonly IssueHash[]): Promise<void> {
    for (let i = 0; i < rows.length; i += CHUNK) {
      await this.trx
        .insertInto("issue_hashes")
        .values(
          rows.slice(i, i + CHUNK).map((r) => ({ project_id: r.projectId, hash: r.hash, issue_id: r.issueId, grouping_config: r.config })),
        )
        .onConflict((oc) => oc.columns(["project_id", "hash"]).doNothing())
        .execute();
    }
  }

  async createIssue(issue: NewIssue): Promise<number> {
    const { trx } = this;
    const counter = await trx
      .insertInto("project_grouping")
      .values({ project_id: issue.projectId, fingerprint_rules: "", next_short_number: 2 })
      .onConflict((oc) => oc.column("project_id").doUpdateSet({ next_short_number: sql`project_grouping.next_short_number + 1` }))
      .returning("next_short_number")
      .executeTakeFirstOrThrow();
    const created = await trx
      .insertInto("issues")
      .values(
        storableRow({
          project_id: issue.projectId,
          short_number: counter.next_short_number - 1,
          type: issue.fields.type,
          title: issue.fields.title,
          culprit: issue.fields.culprit,
          level: issue.fields.level,
          metadata: JSON.stringify(issue.fields.metadata),
          status: "unresolved",
          substatus: "new",
          first_seen: issue.seenAt,
          last_seen: issue.seenAt,
          times_seen: 0,
          user_count: 0,
          first_release: issue.release,
          last_release: issue.release,
          first_environment: issue.environment,
          last_environment: issue.environment,
          resolved_next_release: 0,
          grouping_config: issue.config,
        }),
      )
      .returning("id")
      .executeTakeFirstOrThrow();
    const hashes = [...new Set(issue.hashes)];
    const claimed = await trx
      .insertInto("issue_hashes")
      .values(hashes.map((hash) => ({ project_id: issue.projectId, hash, issue_id: created.id, grouping_config: issue.config })))
      .onConflict((oc) => oc.columns(["project_id", "hash"]).doNothing())
      .returning("hash")
      .execute();
    if (claimed.length === hashes.length) return created.id;
    // On PostgreSQL another process digesting at the same time created an issue for one of
    // these hashes first (this insert waited for its commit): the event belongs to that issue.
    const taken = await trx
      .selectFrom("issue_hashes")
      .select(["hash", "issue_id"])
      .where("project_id", "=", issue.projectId)
      .where("hash", "in", hashes)
      .where("issue_id", "!=", created.id)
      .execute();
    const owner = hashes.map((h) => taken.find((t) => t.hash === h)?.issue_id).find((id) => id !== undefined);
    if (owner === undefined) return created.id;
    await trx.deleteFrom("issues").where("id", "=", created.id).execute();
    return owner;
  }

  async addUsers(rows: readonly IssueUser[]): Promise<Map<number, number>> {
    const newUsers = new Map<number, number>();
    for (let i = 0; i < rows.length; i += CHUNK) {
      const inserted = await this.trx
        .insertInto("issue_users")
        .values(rows.slice(i, i + CHUNK).map((r) => ({ issue_id: r.issueId, user_key: r.userKey, first_seen: r.firstSeen })))
        .onConflict((oc) => oc.columns(["issue_id", "user_key"]).doNothing())
        .returning("issue_id")
        .execute();
      for (const r of inserted) newUsers.set(r.issue_id, (newUsers.get(r.issue_id) ?? 0) + 1);
    }
    return newUsers;
  }

  async readIssues(ids: readonly number[], lock: boolean): Promise<Map<number, StoredIssueState>> {
    const found = new Map<number, StoredIssueState>();
    for (let i = 0; i < ids.length; i += CHUNK) {
      let read = this.trx
        .selectFrom("issues")
        .selectAll()
        .where("id", "in", ids.slice(i, i + CHUNK))
        .orderBy("id");
      if (lock) read = read.forUpdate();
      for (const row of await read.execute()) found.set(row.id, row);
    }
    return found;
  }

  /**
   * SQLite: one UPDATE per issue, each a synchronous call of a few microseconds. PostgreSQL: each
   * of those was a round trip that the database also parsed and planned — ~125 per batch of the
   * bench's mix — so the updates that set the same columns go in one statement, their rows read
   * from one JSON parameter typed by the table's own row type (`jsonb_populate_recordset`). The
   * rows were locked in id order when they were read (`readIssues`), so the order in which this
   * statement writes them takes no new lock. Text goes through `storableText` on both, as every
   * text column the digest writes (decision 0006): jsonb refuses NUL and lone surrogates.
   */
  async updateIssues(rows: readonly IssueRowUpdate[]): Promise<void> {
    const byColumns = new Map<string, { columns: string[]; values: Record<string, unknown>[] }>();
    for (const { id, update } of rows) {
      const set: Record<string, unknown> = {};
      for (const [column, value] of Object.entries(update)) {
        if (value !== undefined) set[column] = typeof value === "string" ? storableText(value) : value;
      }
      if (!this.postgres) {
        await this.trx.updateTable("issues").set(set).where("id", "=", id).execute();
        continue;
      }
      const columns = Object.keys(set);
      const key = columns.join(",");
      let group = byColumns.get(key);
      if (!group) byColumns.set(key, (group = { columns, values: [] }));
      group.values.push({ id, ...set });
    }
    for (const { columns, values } of byColumns.values()) {
      const set = sql.join(columns.map((c) => sql`${sql.id(c)} = r.${sql.id(c)}`));
      await sql`update issues set ${set} from jsonb_populate_recordset(null::issues, ${JSON.stringify(values)}::jsonb) as r where issues.id = r.id`.execute(
        this.trx,
      );
    }
  }

  async addTags(rows: readonly IssueTagDelta[]): Promise<void> {
    // Made storable here too: tag values come from anywhere in the event (contexts, the SDK's tags).
    const tags = rows.map((t) =>
      storableRow({
        issue_id: t.issueId,
        key: t.key,
        value: t.value,
        times_seen: t.count,
        first_seen: t.firstSeen,
        last_seen: t.lastSeen,
      }),
    );
    await insertRows(this.trx, "issue_tags", tags, ADD_TAG_COUNTS);
  }

  async addHours(rows: readonly IssueHourDelta[]): Promise<void> {
    const hours = rows.map((h) => ({ issue_id: h.issueId, hour: h.hour, count: h.count }));
    await insertRows(this.trx, "issue_hourly", hours, ADD_HOUR_COUNTS);
  }

  async addWindowCounts(samples: readonly WindowSample[]): Promise<void> {
    await addWindowCounts(this.trx, samples);
    await addMetricCounts(this.trx, samples);
  }

  async projectsCountingEvents(projectIds: readonly number[]): Promise<ReadonlySet<number>> {
    if (projectIds.length === 0) return new Set();
    // Conditions are stored as JSON text (src/db/alerts-store.ts); every frequency condition's id has this part.
    const rows = await this.trx
      .selectFrom("alert_rules")
      .select("project_id")
      .distinct()
      .where("project_id", "in", projectIds)
      .where("status", "=", "active")
      .where("conditions", "like", "%.event_frequency.%")
      .execute();
    return new Set(rows.map((r) => r.project_id));
  }

  writeChanges(changes: readonly NewIssueChange[]): Promise<void> {
    return writeIssueChanges(this.trx, changes);
  }
}
