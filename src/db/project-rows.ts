import type { Kysely } from "kysely";
import { ISSUE_CHILD_TABLES } from "./issue-delete";
import type { DB, QueueDB } from "./schema";

/** Renames a project of the organization (Directory.updateProject); null when the new slug is taken there. */
export async function renameProjectRow(
  db: Kysely<DB>,
  orgId: number,
  projectId: number,
  change: { slug?: string; name?: string },
): Promise<{ id: number; slug: string; name: string } | null> {
  return db.transaction().execute(async (trx) => {
    if (change.slug !== undefined) {
      const taken = await trx
        .selectFrom("projects")
        .select("id")
        .where("organization_id", "=", orgId)
        .where("slug", "=", change.slug)
        .where("id", "<>", projectId)
        .executeTakeFirst();
      if (taken) return null;
    }
    const values = {
      ...(change.name !== undefined ? { name: change.name } : {}),
      ...(change.slug !== undefined ? { slug: change.slug } : {}),
    };
    const query = trx.selectFrom("projects").select(["id", "slug", "name"]).where("id", "=", projectId);
    if (Object.keys(values).length > 0) await trx.updateTable("projects").set(values).where("id", "=", projectId).execute();
    return query.executeTakeFirstOrThrow();
  });
}

/**
 * Deletes a project and every row stored for it (Directory.deleteProject): what hangs on its
 * issues and attachments first, then the tables with a project_id, then the project; its
 * envelopes still in the ingest queue (a file of its own on SQLite) last.
 */
export async function deleteProjectRows(db: Kysely<DB>, queue: Kysely<QueueDB>, projectId: number): Promise<void> {
  await db.transaction().execute(async (trx) => {
    const issueIds = trx.selectFrom("issues").select("id").where("project_id", "=", projectId);
    // What hangs on the project's issues first, then the issues, then the rest (children before parents).
    for (const table of ISSUE_CHILD_TABLES) await trx.deleteFrom(table).where("issue_id", "in", issueIds).execute();
    const attachmentIds = trx.selectFrom("attachments").select("id").where("project_id", "=", projectId);
    await trx.deleteFrom("attachment_chunks").where("attachment_id", "in", attachmentIds).execute();
    for (const table of [
      "attachments",
      "events",
      "transactions",
      "spans",
      "logs",
      "session_counts",
      "session_distinct",
      "feedback",
      "check_ins",
      "raw_items",
      "dead_letters",
      "digest_deferred",
      "outcomes",
      "issue_changes",
      "issue_hashes",
      "project_quotas",
      "project_options",
      "project_grouping",
    ] as const)
      await trx.deleteFrom(table).where("project_id", "=", projectId).execute();
    await trx.updateTable("issues").set({ merged_into_id: null }).where("project_id", "=", projectId).execute();
    await trx.deleteFrom("issues").where("project_id", "=", projectId).execute();
    await trx.deleteFrom("project_keys").where("project_id", "=", projectId).execute();
    await trx.deleteFrom("project_teams").where("project_id", "=", projectId).execute();
    await trx.deleteFrom("projects").where("id", "=", projectId).execute();
  });
  // The queue's rows for it would otherwise be digested into a project that no longer exists.
  await queue.deleteFrom("ingest_queue").where("project_id", "=", projectId).execute();
}
