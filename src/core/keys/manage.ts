import { z } from "zod";
import type { Project, ProjectKey } from "../../db/schema";
import type { Ctx } from "../context";
import { notFound } from "../errors";
import { validate } from "../validate";
import { generateKeyPair } from "./generate";

export function listKeys(ctx: Ctx, project: Project): Promise<ProjectKey[]> {
  return ctx.db.selectFrom("project_keys").selectAll().where("project_id", "=", project.id).orderBy("id").execute();
}

const KeyLabel = z.string().trim().min(1, "give the key a name").max(64);

export async function createKey({ ctx, input }: { ctx: Ctx; input: { project: Project; label: string } }): Promise<ProjectKey> {
  const label = validate(KeyLabel, input.label);
  const { publicKey, secretKey } = generateKeyPair();
  return ctx.db
    .insertInto("project_keys")
    .values({ project_id: input.project.id, label, public_key: publicKey, secret_key: secretKey, is_active: 1, created_at: ctx.now() })
    .returningAll()
    .executeTakeFirstOrThrow();
}

async function keyOf(ctx: Ctx, project: Project, keyId: number): Promise<ProjectKey> {
  const key = await ctx.db
    .selectFrom("project_keys")
    .selectAll()
    .where("id", "=", keyId)
    .where("project_id", "=", project.id)
    .executeTakeFirst();
  if (!key) throw notFound(`key ${keyId} does not exist in project '${project.slug}'`);
  return key;
}

export async function setKeyActive({
  ctx,
  input,
}: {
  ctx: Ctx;
  input: { project: Project; keyId: number; active: boolean };
}): Promise<void> {
  const key = await keyOf(ctx, input.project, input.keyId);
  await ctx.db
    .updateTable("project_keys")
    .set({ is_active: input.active ? 1 : 0 })
    .where("id", "=", key.id)
    .execute();
}

/**
 * Rotation issues a new key with the same name and limits and disables the old one, which
 * stays listed so it can be re-enabled while clients move to the new DSN.
 */
export async function rotateKey({ ctx, input }: { ctx: Ctx; input: { project: Project; keyId: number } }): Promise<ProjectKey> {
  return ctx.db.transaction().execute(async (trx) => {
    const old = await keyOf({ ...ctx, db: trx }, input.project, input.keyId);
    await trx.updateTable("project_keys").set({ is_active: 0 }).where("id", "=", old.id).execute();
    const { publicKey, secretKey } = generateKeyPair();
    return trx
      .insertInto("project_keys")
      .values({
        project_id: old.project_id,
        label: old.label,
        public_key: publicKey,
        secret_key: secretKey,
        is_active: 1,
        rate_limit_count: old.rate_limit_count,
        rate_limit_window_seconds: old.rate_limit_window_seconds,
        created_at: ctx.now(),
      })
      .returningAll()
      .executeTakeFirstOrThrow();
  });
}
