import type { Kysely } from "kysely";
import type { ProjectGrouping } from "../core/grouping/index";
import type { CreatedProject, NewProjectRecord, ProjectStore, StoredOptions } from "../core/ports/projects";
import type { Project, StoredQuota } from "../core/projects/project";
import { insertRuleRow } from "./alerts-store";
import { defaultTeamId } from "./directory";
import { insertKeyRow } from "./project-key-store";
import type { DB } from "./schema";

/** ProjectStore (src/core/ports/projects.ts) on the main database, the same SQL on both dialects. */
export class KyselyProjectStore implements ProjectStore {
  constructor(private readonly db: Kysely<DB>) {}

  async organizationId(slug: string): Promise<number | null> {
    const org = await this.db.selectFrom("organizations").select("id").where("slug", "=", slug).executeTakeFirst();
    return org?.id ?? null;
  }

  list(orgId: number): Promise<Project[]> {
    return this.db.selectFrom("projects").selectAll().where("organization_id", "=", orgId).orderBy("slug").execute();
  }

  async bySlug(orgId: number, slug: string): Promise<Project | null> {
    const project = await this.db
      .selectFrom("projects")
      .selectAll()
      .where("organization_id", "=", orgId)
      .where("slug", "=", slug)
      .executeTakeFirst();
    return project ?? null;
  }

  create(p: NewProjectRecord): Promise<CreatedProject> {
    return this.db.transaction().execute(async (trx): Promise<CreatedProject> => {
      const org = await trx.selectFrom("organizations").select("id").where("slug", "=", p.orgSlug).executeTakeFirst();
      if (!org) return { refused: "no_organization" };
      const taken = await trx
        .selectFrom("projects")
        .select("id")
        .where("organization_id", "=", org.id)
        .where("slug", "=", p.slug)
        .executeTakeFirst();
      if (taken) return { refused: "slug_taken" };
      const teamId =
        p.teamSlug === undefined
          ? await defaultTeamId(trx, org.id)
          : ((
              await trx
                .selectFrom("teams")
                .select("id")
                .where("organization_id", "=", org.id)
                .where("slug", "=", p.teamSlug)
                .executeTakeFirst()
            )?.id ?? null);
      if (p.teamSlug !== undefined && teamId === null) return { refused: "no_team" };
      const project = await trx
        .insertInto("projects")
        .values({ organization_id: org.id, slug: p.slug, name: p.name, platform: p.platform, created_at: p.now })
        .returningAll()
        .executeTakeFirstOrThrow();
      if (teamId !== null) await trx.insertInto("project_teams").values({ project_id: project.id, team_id: teamId }).execute();
      const key = await insertKeyRow(trx, project.id, { label: "Default", ...p.key, rateLimit: null, now: p.now });
      await insertRuleRow(trx, project.id, p.rule, { isDefault: true, createdBy: null, now: p.now });
      return { project, key };
    });
  }

  async grouping(projectId: number): Promise<ProjectGrouping | null> {
    const row = await this.db
      .selectFrom("projects")
      .select(["grouping_config", "grouping_previous_config", "grouping_transition_until"])
      .where("id", "=", projectId)
      .executeTakeFirst();
    return row
      ? { config: row.grouping_config, previous: row.grouping_previous_config, transitionUntil: row.grouping_transition_until }
      : null;
  }

  async setGrouping(projectId: number, grouping: ProjectGrouping): Promise<void> {
    await this.db
      .updateTable("projects")
      .set({
        grouping_config: grouping.config,
        grouping_previous_config: grouping.previous,
        grouping_transition_until: grouping.transitionUntil,
      })
      .where("id", "=", projectId)
      .execute();
  }

  async options(projectId: number): Promise<StoredOptions> {
    const row = await this.db
      .selectFrom("project_options")
      .select(["filters", "scrubbing"])
      .where("project_id", "=", projectId)
      .executeTakeFirst();
    return { ...row, grouping: await this.grouping(projectId) };
  }

  async saveOption(projectId: number, option: "filters" | "scrubbing", json: string): Promise<void> {
    await this.db
      .insertInto("project_options")
      .values({ project_id: projectId, filters: option === "filters" ? json : "{}", scrubbing: option === "scrubbing" ? json : "{}" })
      .onConflict((oc) => oc.column("project_id").doUpdateSet({ [option]: json }))
      .execute();
  }

  quotas(projectId: number): Promise<StoredQuota[]> {
    return this.db.selectFrom("project_quotas").selectAll().where("project_id", "=", projectId).orderBy("category").execute();
  }

  async setQuota(quota: StoredQuota): Promise<void> {
    await this.db
      .insertInto("project_quotas")
      .values(quota)
      .onConflict((oc) =>
        oc.columns(["project_id", "category"]).doUpdateSet({ limit_count: quota.limit_count, window_seconds: quota.window_seconds }),
      )
      .execute();
  }

  async removeQuota(projectId: number, category: string): Promise<void> {
    await this.db.deleteFrom("project_quotas").where("project_id", "=", projectId).where("category", "=", category).execute();
  }

  async firstIssue(projectId: number): Promise<{ id: number; title: string } | null> {
    const row = await this.db
      .selectFrom("issues")
      .select(["id", "title"])
      .where("project_id", "=", projectId)
      .orderBy("first_seen")
      .orderBy("id")
      .limit(1)
      .executeTakeFirst();
    return row ?? null;
  }
}
