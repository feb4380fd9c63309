import type { Ctx } from "../context";
import { parseFingerprintRules, type FingerprintRule } from "../grouping/index";
import { invalidInput } from "../errors";

/** A project's fingerprint rules as stored (text, Sentry's syntax); unparseable text counts as none. */
export async function fingerprintRulesText(ctx: Ctx, projectId: number): Promise<string> {
  const row = await ctx.db
    .selectFrom("project_grouping")
    .select("fingerprint_rules")
    .where("project_id", "=", projectId)
    .executeTakeFirst();
  return row?.fingerprint_rules ?? "";
}

export async function fingerprintRules(ctx: Ctx, projectId: number): Promise<readonly FingerprintRule[]> {
  const parsed = parseFingerprintRules(await fingerprintRulesText(ctx, projectId));
  return parsed.ok ? parsed.rules : [];
}

/** Saves fingerprint rules after checking them; an invalid line is refused with its position. */
export async function saveFingerprintRules({ ctx, input }: { ctx: Ctx; input: { projectId: number; text: string } }): Promise<void> {
  if (input.text.length > 64 * 1024) throw invalidInput("fingerprint rules are limited to 64 KiB");
  const parsed = parseFingerprintRules(input.text);
  if (!parsed.ok) {
    const e = parsed.errors[0]!;
    throw invalidInput(`line ${e.line}, column ${e.column}: ${e.message}`);
  }
  await ctx.db
    .insertInto("project_grouping")
    .values({ project_id: input.projectId, fingerprint_rules: input.text, next_short_number: 1 })
    .onConflict((oc) => oc.column("project_id").doUpdateSet({ fingerprint_rules: input.text }))
    .execute();
}

/** The hashes that lead to an issue (its own and those of issues merged into it), for the grouping explanation. */
export async function issueHashes(ctx: Ctx, issueId: number): Promise<string[]> {
  const rows = await ctx.db.selectFrom("issue_hashes").select("hash").where("issue_id", "=", issueId).orderBy("hash").execute();
  return rows.map((r) => r.hash);
}
