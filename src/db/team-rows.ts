import type { Kysely } from "kysely";
import type { TeamRecord } from "../core/ports/directory";
import type { DB, Team } from "./schema";

export const teamRecord = (t: Team): TeamRecord => ({
  id: t.id,
  organizationId: t.organization_id,
  slug: t.slug,
  name: t.name,
  isDefault: t.is_default === 1,
  createdAt: t.created_at,
});

/** Inserts a team row and its admin (used by organization creation in its own transaction too). */
export async function insertTeamRow(
  db: Kysely<DB>,
  orgId: number,
  team: { slug: string; name: string; isDefault?: boolean },
  adminUserId: number | null,
  now: number,
): Promise<TeamRecord | null> {
  const taken = await db
    .selectFrom("teams")
    .select("id")
    .where("organization_id", "=", orgId)
    .where("slug", "=", team.slug)
    .executeTakeFirst();
  if (taken) return null;
  const row = await db
    .insertInto("teams")
    .values({ organization_id: orgId, slug: team.slug, name: team.name || team.slug, is_default: team.isDefault ? 1 : 0, created_at: now })
    .returningAll()
    .executeTakeFirstOrThrow();
  if (adminUserId !== null)
    await db.insertInto("team_members").values({ team_id: row.id, user_id: adminUserId, role: "admin", created_at: now }).execute();
  return teamRecord(row);
}

/** The organization's default team (its id), for a project created without naming one. */
export async function defaultTeamId(db: Kysely<DB>, orgId: number): Promise<number | null> {
  const row = await db.selectFrom("teams").select("id").where("organization_id", "=", orgId).where("is_default", "=", 1).executeTakeFirst();
  return row?.id ?? null;
}
