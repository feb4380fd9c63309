import { z } from "zod";
import type { Project, ProjectKey } from "../../db/schema";
import { Slug } from "../accounts/schemas";
import type { Ctx } from "../context";
import { conflict, notFound } from "../errors";
import { generateKeyPair } from "../keys/generate";
import { defaultTeamId } from "../../db/directory";
import { insertRuleRow } from "../../db/alerts-store";
import { DEFAULT_RULE } from "../alerts/rule-schema";
import { validate } from "../validate";
import { PLATFORM_IDS } from "./platforms";

export const NewProject = z.object({
  org: Slug,
  slug: Slug,
  name: z.string().trim().max(200).optional(),
  // A string at the boundary (form field, CLI flag); the enum names the platforms in its error.
  platform: z.string().pipe(z.enum(PLATFORM_IDS)).default("javascript"),
  /** The team that owns it; without one, the organization's default team. */
  team: Slug.optional(),
});
export type NewProject = z.input<typeof NewProject>;

/**
 * Creates a project in an organization with its first (default) DSN key and Sentry's default
 * alert rule (email the project's members about a new issue; it can be switched off). The
 * internal project is made by a migration, not here, and so has no rule.
 */
export async function createProject({ ctx, input }: { ctx: Ctx; input: NewProject }): Promise<{ project: Project; key: ProjectKey }> {
  const data = validate(NewProject, input);
  return ctx.db.transaction().execute(async (trx) => {
    const org = await trx.selectFrom("organizations").select("id").where("slug", "=", data.org).executeTakeFirst();
    if (!org) throw notFound(`organization '${data.org}' does not exist`);
    const taken = await trx
      .selectFrom("projects")
      .select("id")
      .where("organization_id", "=", org.id)
      .where("slug", "=", data.slug)
      .executeTakeFirst();
    if (taken) throw conflict(`project '${data.slug}' already exists in organization '${data.org}'`);
    const now = ctx.now();
    const project = await trx
      .insertInto("projects")
      .values({ organization_id: org.id, slug: data.slug, name: data.name ?? data.slug, platform: data.platform, created_at: now })
      .returningAll()
      .executeTakeFirstOrThrow();
    const teamId = data.team
      ? (await trx.selectFrom("teams").select("id").where("organization_id", "=", org.id).where("slug", "=", data.team).executeTakeFirst())
          ?.id
      : await defaultTeamId(trx, org.id);
    if (data.team && teamId === undefined) throw notFound(`team '${data.team}' does not exist in organization '${data.org}'`);
    if (teamId != null) await trx.insertInto("project_teams").values({ project_id: project.id, team_id: teamId }).execute();
    const { publicKey, secretKey } = generateKeyPair();
    const key = await trx
      .insertInto("project_keys")
      .values({ project_id: project.id, label: "Default", public_key: publicKey, secret_key: secretKey, is_active: 1, created_at: now })
      .returningAll()
      .executeTakeFirstOrThrow();
    await insertRuleRow(trx, project.id, DEFAULT_RULE, { isDefault: true, createdBy: null, now });
    return { project, key };
  });
}
