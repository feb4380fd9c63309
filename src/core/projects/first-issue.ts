import type { Ctx } from "../context";

export interface FirstIssue {
  id: number;
  title: string;
}

/**
 * The project's oldest issue, or null while no error has been digested: what the setup
 * guide's "waiting for the first event" panel turns into a link to.
 */
export async function firstIssue(ctx: Ctx, projectId: number): Promise<FirstIssue | null> {
  const row = await ctx.db
    .selectFrom("issues")
    .select(["id", "title"])
    .where("project_id", "=", projectId)
    .orderBy("first_seen")
    .orderBy("id")
    .limit(1)
    .executeTakeFirst();
  return row ?? null;
}
