import { z } from "zod";
import type { Ctx } from "../context";
import { notFound } from "../errors";
import type { Project, ProjectKey } from "../projects/project";
import { validate } from "../validate";
import { generateKeyPair } from "./generate";

export function listKeys(ctx: Ctx, project: Project): Promise<ProjectKey[]> {
  return ctx.projectKeys.list(project.id);
}

const KeyLabel = z.string().trim().min(1, "give the key a name").max(64);

export async function createKey({ ctx, input }: { ctx: Ctx; input: { project: Project; label: string } }): Promise<ProjectKey> {
  const label = validate(KeyLabel, input.label);
  return ctx.projectKeys.create(input.project.id, { label, ...generateKeyPair(), rateLimit: null, now: ctx.now() });
}

const missingKey = (project: Project, keyId: number) => notFound(`key ${keyId} does not exist in project '${project.slug}'`);

export async function setKeyActive({
  ctx,
  input,
}: {
  ctx: Ctx;
  input: { project: Project; keyId: number; active: boolean };
}): Promise<void> {
  if (!(await ctx.projectKeys.setActive(input.project.id, input.keyId, input.active))) throw missingKey(input.project, input.keyId);
}

/**
 * Rotation issues a new key with the same name and limits and disables the old one, which
 * stays listed so it can be re-enabled while clients move to the new DSN.
 */
export async function rotateKey({ ctx, input }: { ctx: Ctx; input: { project: Project; keyId: number } }): Promise<ProjectKey> {
  const fresh = await ctx.projectKeys.rotate(input.project.id, input.keyId, generateKeyPair(), ctx.now());
  if (!fresh) throw missingKey(input.project, input.keyId);
  return fresh;
}
