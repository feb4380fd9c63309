import type { Ctx } from "../context";

/** What a page shows of a dead letter: never its body, only the scrubbed excerpt. */
export interface DeadLetterSummary {
  id: number;
  projectSlug: string;
  itemTypes: string[];
  size: number;
  reason: string;
  excerpt: string;
  receivedAt: number;
  createdAt: number;
  /** False once its raw body was emptied (src/core/deadletters/expire.ts). */
  retryable: boolean;
}

/** The newest dead letters of an organization's projects, newest first. */
export async function listDeadLetters({
  ctx,
  input,
}: {
  ctx: Ctx;
  input: { organizationId: number; limit?: number };
}): Promise<DeadLetterSummary[]> {
  const rows = await ctx.db
    .selectFrom("dead_letters")
    .innerJoin("projects", "projects.id", "dead_letters.project_id")
    .select([
      "dead_letters.id",
      "projects.slug",
      "dead_letters.item_types",
      "dead_letters.size",
      "dead_letters.reason",
      "dead_letters.excerpt",
      "dead_letters.received_at",
      "dead_letters.created_at",
      (eb) => eb.fn<number>("length", ["dead_letters.body"]).as("body_bytes"),
    ])
    .where("projects.organization_id", "=", input.organizationId)
    .orderBy("dead_letters.created_at", "desc")
    .orderBy("dead_letters.id", "desc")
    .limit(Math.min(Math.max(1, input.limit ?? 100), 500))
    .execute();
  return rows.map((r) => ({
    id: r.id,
    projectSlug: r.slug,
    itemTypes: r.item_types === "" ? [] : r.item_types.split(","),
    size: r.size,
    reason: r.reason,
    excerpt: r.excerpt,
    receivedAt: r.received_at,
    createdAt: r.created_at,
    retryable: Number(r.body_bytes) > 0,
  }));
}
