import { sql, type Kysely } from "kysely";
import type { IssueWindowCounts, WindowCounts, WindowSpan } from "../core/ports/window-counts";
import { windowBuckets, type WindowSample } from "../core/issues/window-counts";
import type { DB } from "./schema";

/** Rows per statement. */
const CHUNK = 500;

/** Adds a batch's events to the minute buckets (src/core/issues/window-counts.ts), one statement per table (chunked). */
export async function addWindowCounts(trx: Kysely<DB>, samples: readonly WindowSample[]): Promise<void> {
  const { minutes, minuteUsers, hourUsers } = windowBuckets(samples);
  for (let i = 0; i < minutes.length; i += CHUNK) {
    await trx
      .insertInto("issue_minutes")
      .values(minutes.slice(i, i + CHUNK))
      .onConflict((oc) => oc.columns(["issue_id", "minute"]).doUpdateSet({ count: sql`issue_minutes.count + excluded.count` }))
      .execute();
  }
  for (let i = 0; i < minuteUsers.length; i += CHUNK) {
    await trx
      .insertInto("issue_minute_users")
      .values(minuteUsers.slice(i, i + CHUNK))
      .onConflict((oc) => oc.columns(["issue_id", "minute", "user_key"]).doNothing())
      .execute();
  }
  for (let i = 0; i < hourUsers.length; i += CHUNK) {
    await trx
      .insertInto("issue_hour_users")
      .values(hourUsers.slice(i, i + CHUNK))
      .onConflict((oc) => oc.columns(["issue_id", "hour", "user_key"]).doNothing())
      .execute();
  }
}

/** Events and distinct users of an issue in `span`, through `db`, which may be a transaction the caller holds (the alerts consumer's). */
export async function countsInSpan(db: Kysely<DB>, issueId: number, span: WindowSpan): Promise<WindowCounts> {
  const [counts, users] =
    span.unit === "minute" ? (["issue_minutes", "issue_minute_users"] as const) : (["issue_hourly", "issue_hour_users"] as const);
  const events = await db
    .selectFrom(counts)
    .select((eb) => eb.fn.sum<number | string | null>("count").as("n"))
    .where("issue_id", "=", issueId)
    .where(span.unit, ">=", span.from)
    .where(span.unit, "<=", span.to)
    .executeTakeFirst();
  const distinct = await db
    .selectFrom(users)
    .select((eb) => eb.fn.count<number | string>("user_key").distinct().as("n"))
    .where("issue_id", "=", issueId)
    .where(span.unit, ">=", span.from)
    .where(span.unit, "<=", span.to)
    .executeTakeFirst();
  return { events: Number(events?.n ?? 0), users: Number(distinct?.n ?? 0) };
}

/** Moves a merged issue's buckets to the issue it was merged into (in the merge's transaction). */
export async function mergeWindowCounts(trx: Kysely<DB>, fromIssue: number, intoIssue: number): Promise<void> {
  const minutes = await trx.selectFrom("issue_minutes").selectAll().where("issue_id", "=", fromIssue).execute();
  for (let i = 0; i < minutes.length; i += CHUNK) {
    await trx
      .insertInto("issue_minutes")
      .values(minutes.slice(i, i + CHUNK).map((m) => ({ ...m, issue_id: intoIssue })))
      .onConflict((oc) => oc.columns(["issue_id", "minute"]).doUpdateSet({ count: sql`issue_minutes.count + excluded.count` }))
      .execute();
  }
  for (const table of ["issue_minute_users", "issue_hour_users"] as const) {
    const rows = await trx.selectFrom(table).selectAll().where("issue_id", "=", fromIssue).execute();
    for (let i = 0; i < rows.length; i += CHUNK) {
      await trx
        .insertInto(table)
        .values(rows.slice(i, i + CHUNK).map((r) => ({ ...r, issue_id: intoIssue })))
        .onConflict((oc) => oc.doNothing())
        .execute();
    }
  }
}

/** The window counts over the main database (src/core/ports/window-counts.ts). */
export class KyselyWindowCounts implements IssueWindowCounts {
  constructor(private readonly db: Kysely<DB>) {}

  counts(issueId: number, span: WindowSpan): Promise<WindowCounts> {
    return countsInSpan(this.db, issueId, span);
  }

  async pruneMinutes(before: number): Promise<void> {
    await this.db.deleteFrom("issue_minutes").where("minute", "<", before).execute();
    await this.db.deleteFrom("issue_minute_users").where("minute", "<", before).execute();
  }
}
