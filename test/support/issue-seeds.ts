import type { Insertable, Kysely } from "kysely";
import type { DB, IssuesTable } from "../../src/db/schema";

export type IssueSeed = Partial<Insertable<IssuesTable>> & { tags?: Array<[string, string]> };

/** Inserts issues with their tags straight into the tables the digest step writes; returns their ids in order. */
export async function seedIssues(db: Kysely<DB>, projectId: number, seeds: IssueSeed[]): Promise<number[]> {
  const ids: number[] = [];
  const top = await db
    .selectFrom("issues")
    .select((eb) => eb.fn.max("short_number").as("n"))
    .where("project_id", "=", projectId)
    .executeTakeFirst();
  let short = Number(top?.n ?? 0);
  for (const { tags = [], ...seed } of seeds) {
    const row = await db
      .insertInto("issues")
      .values({
        project_id: projectId,
        short_number: ++short,
        type: "error",
        title: "Error",
        culprit: "",
        level: "error",
        metadata: "{}",
        status: "unresolved",
        substatus: "ongoing",
        first_seen: 0,
        last_seen: 0,
        times_seen: 1,
        user_count: 0,
        resolved_next_release: 0,
        grouping_config: "newstyle:2023-01-11",
        ...seed,
      })
      .returning("id")
      .executeTakeFirstOrThrow();
    if (tags.length > 0) {
      await db
        .insertInto("issue_tags")
        .values(tags.map(([key, value]) => ({ issue_id: row.id, key, value, times_seen: 1, first_seen: 0, last_seen: 0 })))
        .execute();
    }
    ids.push(row.id);
  }
  return ids;
}

export async function seedUser(db: Kysely<DB>, email: string): Promise<number> {
  const row = await db
    .insertInto("users")
    .values({ email, name: email, password_hash: "x", is_superuser: 0, created_at: 0 })
    .returning("id")
    .executeTakeFirstOrThrow();
  return row.id;
}
