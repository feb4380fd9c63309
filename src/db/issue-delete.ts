import type { Kysely } from "kysely";
import type { Issue } from "../core/issues/issue";
import type { DB } from "./schema";

/** The tables whose rows hang on an issue (counts, activity, bookmarks): deleted before their issue. */
export const ISSUE_CHILD_TABLES = [
  "issue_tags",
  "issue_users",
  "issue_hourly",
  "issue_minutes",
  "issue_minute_users",
  "issue_hour_users",
  "issue_activity",
  "issue_bookmarks",
] as const;

/**
 * The storage half of deleting issues (IssueTriage.delete), in the caller's transaction: the
 * issues merged into them go too (their events and counts moved into these, as merging does in
 * src/db/issue-merge.ts), then every issue's events with their attachments, its counts, hashes
 * (so a new event with the same fingerprint opens a new issue), rule fires and outbox changes
 * (a consumer behind would otherwise write activity for an issue that is gone), then the issues.
 * Returns the issues deleted, the named ones first.
 */
export async function deleteIssueRows(trx: Kysely<DB>, named: readonly Issue[]): Promise<Issue[]> {
  if (named.length === 0) return [];
  const namedIds = named.map((i) => i.id);
  const merged = await trx.selectFrom("issues").selectAll().where("merged_into_id", "in", namedIds).orderBy("id").execute();
  const deleted = [...named, ...merged.filter((m) => !namedIds.includes(m.id))];
  const ids = deleted.map((i) => i.id);
  const attachments = trx
    .selectFrom("attachments")
    .select("id")
    .where((eb) =>
      eb.exists(
        eb
          .selectFrom("events")
          .select("events.id")
          .whereRef("events.project_id", "=", "attachments.project_id")
          .whereRef("events.event_id", "=", "attachments.event_id")
          .where("events.issue_id", "in", ids),
      ),
    );
  await trx.deleteFrom("attachment_chunks").where("attachment_id", "in", attachments).execute();
  await trx.deleteFrom("attachments").where("id", "in", attachments).execute();
  await trx.deleteFrom("events").where("issue_id", "in", ids).execute();
  for (const table of [...ISSUE_CHILD_TABLES, "issue_hashes", "alert_rule_fires", "issue_changes"] as const)
    await trx.deleteFrom(table).where("issue_id", "in", ids).execute();
  await trx.deleteFrom("issues").where("id", "in", ids).execute();
  return deleted;
}
