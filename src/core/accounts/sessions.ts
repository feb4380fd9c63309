import type { User } from "../../db/schema";
import type { Ctx } from "../context";
import { hashSessionToken } from "./login";

/** The user a session cookie belongs to, or null when it is unknown or expired. */
export async function userForSession(ctx: Ctx, token: string | undefined): Promise<User | null> {
  if (!token || token.length > 128) return null;
  const row = await ctx.db
    .selectFrom("sessions")
    .innerJoin("users", "users.id", "sessions.user_id")
    .selectAll("users")
    .where("sessions.id", "=", hashSessionToken(token))
    .where("sessions.expires_at", ">", ctx.now())
    .executeTakeFirst();
  return row ?? null;
}

export async function logout(ctx: Ctx, token: string | undefined): Promise<void> {
  if (!token) return;
  await ctx.db.deleteFrom("sessions").where("id", "=", hashSessionToken(token)).execute();
}
