import { sql, type Kysely, type SelectQueryBuilder } from "kysely";
import type { ProjectItemKind, RetentionScope, RetentionStore } from "../core/ports/retention";
import type { Dialect } from "./connect";
import { emptyDeadLetterBodies } from "./dead-letter-bodies";
import type { DB } from "./schema";
import { freePages, pageBytes, vacuumPages } from "./vacuum";

/** Each kind's time column, and whether it holds seconds (the event time of the SDK) rather than milliseconds. */
const TIME_OF: Record<ProjectItemKind, { column: "timestamp" | "received_at" | "created_at"; seconds: boolean }> = {
  transactions: { column: "timestamp", seconds: true },
  spans: { column: "timestamp", seconds: true },
  logs: { column: "timestamp", seconds: true },
  raw_items: { column: "received_at", seconds: false },
  feedback: { column: "received_at", seconds: false },
  check_ins: { column: "received_at", seconds: false },
  attachments: { column: "created_at", seconds: false },
  dead_letters: { column: "created_at", seconds: false },
};

/**
 * Retention's deletions over both dialects. Items are found project by project, each through
 * its table's (project_id, time) index (migration 0034), and events issue by issue through
 * (issue_id, timestamp): the events table has no index on time alone.
 */
export class KyselyRetentionStore implements RetentionStore {
  constructor(
    private readonly db: Kysely<DB>,
    private readonly dialect: Dialect,
  ) {}

  async projectIds(scope: RetentionScope): Promise<number[]> {
    let q = this.db.selectFrom("projects").select("id");
    if (scope) q = q.where("id", scope.op, scope.projectId);
    return (await q.orderBy("id").execute()).map((r) => r.id);
  }

  async deleteProjectItems(kind: ProjectItemKind, projectId: number, cutoff: number, batch: number): Promise<number> {
    const { column, seconds } = TIME_OF[kind];
    const ids = await this.db
      .selectFrom(kind)
      .select("id")
      .where("project_id", "=", projectId)
      .where(sql.ref<number>(column), "<", seconds ? cutoff / 1000 : cutoff)
      .limit(batch)
      .execute();
    return this.deleteIds(kind, ids);
  }

  async deleteEventsWithoutIssue(scope: RetentionScope, cutoff: number, batch: number): Promise<number> {
    let q = this.db
      .selectFrom("events")
      .select("id")
      .where("issue_id", "is", null)
      .where("timestamp", "<", cutoff / 1000);
    if (scope) q = q.where("project_id", scope.op, scope.projectId);
    return this.deleteIds("events", await q.limit(batch).execute());
  }

  async issuesFirstSeenBy(scope: RetentionScope, cutoff: number): Promise<number[]> {
    // `first_seen` is the event time in whole milliseconds, rounded: an event just before the cut-off may round onto it.
    let q = this.db.selectFrom("issues").select("id").where("first_seen", "<=", cutoff);
    if (scope) q = q.where("project_id", scope.op, scope.projectId);
    return (await q.orderBy("id").execute()).map((r) => r.id);
  }

  async deleteIssueEvents(issueIds: readonly number[], cutoff: number, batch: number): Promise<number> {
    if (issueIds.length === 0) return 0;
    const ids = await this.db
      .selectFrom("events")
      .select("id")
      .where("issue_id", "in", issueIds)
      .where("timestamp", "<", cutoff / 1000)
      .limit(batch)
      .execute();
    return this.deleteIds("events", ids);
  }

  async issuesSeenMoreThan(times: number): Promise<number[]> {
    return (await this.db.selectFrom("issues").select("id").where("times_seen", ">", times).orderBy("id").execute()).map((r) => r.id);
  }

  async crowdedIssues(issueIds: readonly number[], max: number): Promise<{ issueId: number; events: number }[]> {
    if (issueIds.length === 0) return [];
    const rows = await this.db
      .selectFrom("events")
      .select(["issue_id", (eb) => eb.fn.countAll<number | string>().as("n")])
      .where("issue_id", "in", issueIds)
      .groupBy("issue_id")
      .having((eb) => eb.fn.countAll(), ">", max)
      .execute();
    return rows.flatMap((r) => (r.issue_id === null ? [] : [{ issueId: r.issue_id, events: Number(r.n) }]));
  }

  async deleteOldestEvents(issueId: number, count: number): Promise<number> {
    const ids = await this.db
      .selectFrom("events")
      .select("id")
      .where("issue_id", "=", issueId)
      .orderBy("timestamp", "asc")
      .orderBy("id", "asc")
      .limit(count)
      .execute();
    return this.deleteIds("events", ids);
  }

  async deleteOutcomes(projectId: number, cutoff: number): Promise<void> {
    // Found through the primary key, which starts with (project_id, hour).
    await this.db.deleteFrom("outcomes").where("project_id", "=", projectId).where("hour", "<", cutoff).execute();
  }

  async deleteSessionCounts(scope: RetentionScope, cutoff: number): Promise<number> {
    let q = this.db.deleteFrom("session_counts").where("hour", "<", cutoff);
    if (scope) q = q.where("project_id", scope.op, scope.projectId);
    return Number((await q.executeTakeFirst()).numDeletedRows);
  }

  async deleteSessionMembers(scope: RetentionScope, cutoff: number): Promise<number> {
    let q = this.db.deleteFrom("session_distinct").where("bucket", "<", cutoff);
    if (scope) q = q.where("project_id", scope.op, scope.projectId);
    return Number((await q.executeTakeFirst()).numDeletedRows);
  }

  async deleteIssueHours(scope: RetentionScope, cutoff: number): Promise<void> {
    let q = this.db.deleteFrom("issue_hourly").where("hour", "<", cutoff);
    if (scope) q = q.where("issue_id", scope.op === "=" ? "in" : "not in", this.issuesOf(scope.projectId));
    await q.execute();
  }

  async deleteIssueHourUsers(scope: RetentionScope, cutoff: number): Promise<void> {
    let q = this.db.deleteFrom("issue_hour_users").where("hour", "<", cutoff);
    if (scope) q = q.where("issue_id", scope.op === "=" ? "in" : "not in", this.issuesOf(scope.projectId));
    await q.execute();
  }

  async deleteTakenChanges(scope: RetentionScope, cutoff: number): Promise<void> {
    // The outbox keeps what one consumer still owes.
    const taken = await this.db
      .selectFrom("outbox_positions")
      .select((eb) => eb.fn.min<number | string | null>("seq").as("seq"))
      .executeTakeFirst();
    let q = this.db.deleteFrom("issue_changes").where("created_at", "<", cutoff);
    if (taken?.seq !== null && taken?.seq !== undefined) q = q.where("seq", "<=", Number(taken.seq));
    if (scope) q = q.where("project_id", scope.op, scope.projectId);
    await q.execute();
  }

  emptyDeadLetterBodies(cutoff: number): Promise<number> {
    return emptyDeadLetterBodies(this.db, this.dialect, cutoff);
  }

  async freeSpace(): Promise<{ pages: number; pageBytes: number } | null> {
    if (this.dialect !== "sqlite") return null;
    const bytes = await pageBytes(this.db);
    return { pages: await freePages(this.db), pageBytes: bytes };
  }

  async givePagesBack(pages: number): Promise<void> {
    if (this.dialect === "sqlite") await vacuumPages(this.db, pages);
  }

  private issuesOf(projectId: number): SelectQueryBuilder<DB, "issues", { id: number }> {
    return this.db.selectFrom("issues").select("id").where("project_id", "=", projectId);
  }

  /** Deletes the rows of `table` with these ids; returns how many ids there were. */
  private async deleteIds(table: ProjectItemKind | "events", ids: readonly { id: number }[]): Promise<number> {
    if (ids.length > 0)
      await this.db
        .deleteFrom(table)
        .where(
          "id",
          "in",
          ids.map((r) => r.id),
        )
        .execute();
    return ids.length;
  }
}
