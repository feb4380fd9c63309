import { z } from "zod";
import type { Ctx } from "../context";
import { validate } from "../validate";

/** Categories a project quota can name (docs/protocol.md#data-categories), `*` for all of them together. */
export const QUOTA_CATEGORIES = [
  "*",
  "error",
  "default",
  "transaction",
  "span",
  "attachment",
  "session",
  "log_item",
  "feedback",
  "monitor",
  "profile",
  "replay",
  "security",
] as const;

export const ProjectQuota = z.object({
  category: z.enum(QUOTA_CATEGORIES, { message: `the category is one of ${QUOTA_CATEGORIES.join(", ")}` }),
  count: z.coerce.number().int().min(0).max(1_000_000_000),
  windowSeconds: z.coerce.number().int().min(1).max(86_400),
});

export function listQuotas(ctx: Ctx, projectId: number) {
  return ctx.db.selectFrom("project_quotas").selectAll().where("project_id", "=", projectId).orderBy("category").execute();
}

/** Sets the project's quota for a category (events per window); replaces an earlier one. */
export async function setProjectQuota({
  ctx,
  input,
}: {
  ctx: Ctx;
  input: { projectId: number; quota: { category: string; count: string | number; windowSeconds: string | number } };
}): Promise<void> {
  const q = validate(ProjectQuota, input.quota);
  await ctx.db
    .insertInto("project_quotas")
    .values({ project_id: input.projectId, category: q.category, limit_count: q.count, window_seconds: q.windowSeconds })
    .onConflict((oc) => oc.columns(["project_id", "category"]).doUpdateSet({ limit_count: q.count, window_seconds: q.windowSeconds }))
    .execute();
}

export async function removeProjectQuota({ ctx, input }: { ctx: Ctx; input: { projectId: number; category: string } }): Promise<void> {
  await ctx.db.deleteFrom("project_quotas").where("project_id", "=", input.projectId).where("category", "=", input.category).execute();
}
