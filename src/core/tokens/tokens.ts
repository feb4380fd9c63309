import { createHash, randomBytes } from "node:crypto";
import { z } from "zod";
import type { User } from "../../db/schema";
import { Email } from "../accounts/schemas";
import type { Ctx } from "../context";
import { notFound } from "../errors";
import { validate } from "../validate";

const PREFIX = "tlt_";
const hashToken = (token: string) => createHash("sha256").update(token).digest("hex");

export const NewToken = z.object({ user: Email, name: z.string().trim().max(100).default("CLI token") });

/** Creates an API token. The token itself is returned once and only its hash is stored. */
export async function createToken({ ctx, input }: { ctx: Ctx; input: z.input<typeof NewToken> }): Promise<{ id: number; token: string }> {
  const data = validate(NewToken, input);
  const user = await ctx.db.selectFrom("users").select("id").where("email", "=", data.user).executeTakeFirst();
  if (!user) throw notFound(`user '${data.user}' does not exist`);
  const token = PREFIX + randomBytes(32).toString("hex");
  const row = await ctx.db
    .insertInto("api_tokens")
    .values({ user_id: user.id, name: data.name, token_hash: hashToken(token), token_prefix: token.slice(0, 10), created_at: ctx.now() })
    .returning("id")
    .executeTakeFirstOrThrow();
  return { id: row.id, token };
}

/** The user an `Authorization: Bearer` token belongs to, or null. */
export async function userForToken(ctx: Ctx, token: string): Promise<User | null> {
  if (!token.startsWith(PREFIX) || token.length > 200) return null;
  const row = await ctx.db
    .selectFrom("api_tokens")
    .innerJoin("users", "users.id", "api_tokens.user_id")
    .selectAll("users")
    .select("api_tokens.id as token_id")
    .select("api_tokens.last_used_at")
    .where("api_tokens.token_hash", "=", hashToken(token))
    .executeTakeFirst();
  if (!row) return null;
  const { token_id, last_used_at, ...user } = row;
  // Record use at most once a minute: a busy API client must not turn every read into a write.
  const now = ctx.now();
  if (last_used_at === null || now - last_used_at > 60_000) {
    await ctx.db.updateTable("api_tokens").set({ last_used_at: now }).where("id", "=", token_id).execute();
  }
  return user;
}
