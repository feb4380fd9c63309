import type { Kysely } from "kysely";
import type { Organization } from "../core/orgs/organization";
import type { OrganizationStore } from "../core/ports/organizations";
import type { DB } from "./schema";
import { insertTeamRow } from "./team-rows";

/**
 * Inserts an organization, its owner's membership and its default team, named after it and
 * holding the owner; null when the slug is taken. Runs in the caller's transaction: the first
 * run's setup (src/db/account-store.ts) adds its admin in the same one.
 */
export async function insertOrganizationRows(
  db: Kysely<DB>,
  org: { slug: string; name: string },
  ownerId: number | null,
  now: number,
): Promise<Organization | null> {
  const taken = await db.selectFrom("organizations").select("id").where("slug", "=", org.slug).executeTakeFirst();
  if (taken) return null;
  const row = await db
    .insertInto("organizations")
    .values({ slug: org.slug, name: org.name || org.slug, is_internal: 0, created_at: now })
    .returningAll()
    .executeTakeFirstOrThrow();
  if (ownerId !== null) {
    await db.insertInto("memberships").values({ organization_id: row.id, user_id: ownerId, role: "owner", created_at: now }).execute();
  }
  await insertTeamRow(db, row.id, { slug: row.slug, name: row.name, isDefault: true }, ownerId, now);
  return row;
}

/** Organizations (src/core/ports/organizations.ts) on the main database, SQLite and PostgreSQL alike. */
export class KyselyOrganizationStore implements OrganizationStore {
  constructor(private readonly db: Kysely<DB>) {}

  all(): Promise<Organization[]> {
    return this.db.selectFrom("organizations").selectAll().orderBy("is_internal").orderBy("slug").execute();
  }

  async bySlug(slug: string): Promise<Organization | null> {
    return (await this.db.selectFrom("organizations").selectAll().where("slug", "=", slug).executeTakeFirst()) ?? null;
  }

  create(
    org: { slug: string; name: string },
    ownerEmail: string | null,
    now: number,
  ): Promise<{ org: Organization } | { refused: "unknown-owner" | "slug-taken" }> {
    return this.db.transaction().execute(async (trx) => {
      let ownerId: number | null = null;
      if (ownerEmail !== null) {
        const owner = await trx.selectFrom("users").select("id").where("email", "=", ownerEmail).executeTakeFirst();
        if (!owner) return { refused: "unknown-owner" as const };
        ownerId = owner.id;
      }
      const row = await insertOrganizationRows(trx, org, ownerId, now);
      return row ? { org: row } : { refused: "slug-taken" as const };
    });
  }

  async update(orgId: number, change: { name?: string; slug?: string }): Promise<Organization | null> {
    if (change.slug !== undefined) {
      const taken = await this.db
        .selectFrom("organizations")
        .select("id")
        .where("slug", "=", change.slug)
        .where("id", "!=", orgId)
        .executeTakeFirst();
      if (taken) return null;
    }
    return this.db.updateTable("organizations").set(change).where("id", "=", orgId).returningAll().executeTakeFirstOrThrow();
  }
}
