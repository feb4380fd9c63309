import type { User } from "../../db/schema";
import type { Ctx } from "../context";
import { invalidInput, notFound } from "../errors";
import { validate } from "../validate";
import { hashPassword, verifyPassword } from "./password";
import { Password } from "./schemas";
import { endSessions } from "./sessions";

/**
 * The account page's "Change password": the current password is required (a session left
 * open on a shared computer must not be enough), the new one follows setup's rules, and every
 * other session of the user ends; the one making the change stays signed in.
 */
export async function changePassword({
  ctx,
  user,
  input,
}: {
  ctx: Ctx;
  user: User;
  input: { current: string; password: string; sessionToken: string | undefined };
}): Promise<void> {
  const stored = await ctx.db.selectFrom("users").select("password_hash").where("id", "=", user.id).executeTakeFirstOrThrow();
  if (!(await verifyPassword(input.current, stored.password_hash))) {
    throw invalidInput("The current password is wrong.", { current: "the current password is wrong" });
  }
  const parsed = Password.safeParse(input.password);
  if (!parsed.success) {
    const problem = parsed.error.issues[0]?.message ?? "choose another password";
    throw invalidInput(`New password: ${problem}.`, { password: problem });
  }
  const password = parsed.data;
  await ctx.db
    .updateTable("users")
    .set({ password_hash: await hashPassword(password) })
    .where("id", "=", user.id)
    .execute();
  await endSessions(ctx, user.id, input.sessionToken);
}

/**
 * An administrator's reset (`telltale user set-password`): no current password, every session
 * and reset link of the user ends, so whoever knew the old password is out.
 */
export async function setPasswordByEmail({ ctx, input }: { ctx: Ctx; input: { email: string; password: string } }): Promise<User> {
  const email = input.email.trim().toLowerCase();
  const password = validate(Password, input.password);
  const user = await ctx.db.selectFrom("users").selectAll().where("email", "=", email).executeTakeFirst();
  if (!user) throw notFound(`no user with email '${email}'`);
  const hash = await hashPassword(password);
  await ctx.db.transaction().execute(async (trx) => {
    await trx.updateTable("users").set({ password_hash: hash }).where("id", "=", user.id).execute();
    await trx.deleteFrom("sessions").where("user_id", "=", user.id).execute();
    await trx.deleteFrom("password_resets").where("user_id", "=", user.id).execute();
  });
  return user;
}
