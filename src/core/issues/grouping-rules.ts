import type { Ctx } from "../context";
import { parseFingerprintRules, type FingerprintRule } from "../grouping/index";
import { invalidInput } from "../errors";

/** A project's fingerprint rules as stored (text, Sentry's syntax). */
export function fingerprintRulesText(ctx: Ctx, projectId: number): Promise<string> {
  return ctx.groupingRules.text(projectId);
}

/** A project's fingerprint rules, parsed; unparseable text counts as none. */
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
  await ctx.groupingRules.save(input.projectId, input.text);
}

/** The hashes that lead to an issue (its own and those of issues merged into it), for the grouping explanation. */
export function issueHashes(ctx: Ctx, issueId: number): Promise<string[]> {
  return ctx.issueReader.hashes(issueId);
}
