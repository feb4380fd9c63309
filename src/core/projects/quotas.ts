import { z } from "zod";
import type { Ctx } from "../context";
import { validate } from "../validate";
import type { StoredQuota } from "./project";

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

export function listQuotas(ctx: Ctx, projectId: number): Promise<StoredQuota[]> {
  return ctx.projects.quotas(projectId);
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
  await ctx.projects.setQuota({ project_id: input.projectId, category: q.category, limit_count: q.count, window_seconds: q.windowSeconds });
}

export async function removeProjectQuota({ ctx, input }: { ctx: Ctx; input: { projectId: number; category: string } }): Promise<void> {
  await ctx.projects.removeQuota(input.projectId, input.category);
}
