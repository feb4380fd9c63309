import type { Kysely } from "kysely";
import type { DB } from "../../src/db/schema";

/** Rows the Kysely subjects of the contract suites stand on, written straight into the tables. */
export async function seedOrganization(db: Kysely<DB>, slug: string): Promise<number> {
  const org = await db
    .insertInto("organizations")
    .values({ slug, name: slug, is_internal: 0, created_at: 0 })
    .returning("id")
    .executeTakeFirstOrThrow();
  return org.id;
}

export async function seedProject(db: Kysely<DB>, orgId: number, slug: string): Promise<number> {
  const project = await db
    .insertInto("projects")
    .values({ organization_id: orgId, slug, name: slug, platform: "javascript", created_at: 0 })
    .returning("id")
    .executeTakeFirstOrThrow();
  return project.id;
}
