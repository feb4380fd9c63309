import type { Kysely } from "kysely";
import type { ReleaseReferences } from "../core/ports/releases";
import type { DB } from "./schema";

/**
 * What still names a release in its projects: issues it introduced or events tagged with it
 * (the issues' release tags), and release-health sessions. Each is one indexed probe, limit 1.
 */
export async function releaseReferences(db: Kysely<DB>, projectIds: readonly number[], version: string): Promise<ReleaseReferences> {
  if (projectIds.length === 0) return { issues: false, health: false };
  const ids = [...projectIds];
  const [introduced, tagged, sessions] = await Promise.all([
    db
      .selectFrom("issues")
      .select("id")
      .where("project_id", "in", ids)
      .where("first_release", "=", version)
      .where("merged_into_id", "is", null)
      .limit(1)
      .executeTakeFirst(),
    db
      .selectFrom("issue_tags")
      .innerJoin("issues", "issues.id", "issue_tags.issue_id")
      .select("issue_tags.issue_id")
      .where("issue_tags.key", "=", "release")
      .where("issue_tags.value", "=", version)
      .where("issues.project_id", "in", ids)
      .limit(1)
      .executeTakeFirst(),
    db
      .selectFrom("session_counts")
      .select("project_id")
      .where("project_id", "in", ids)
      .where("release", "=", version)
      .limit(1)
      .executeTakeFirst(),
  ]);
  return { issues: introduced !== undefined || tagged !== undefined, health: sessions !== undefined };
}
