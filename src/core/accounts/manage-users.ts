import type { Ctx } from "../context";
import { conflict, forbidden, notFound } from "../errors";
import { requireSuperuser } from "../permissions/superuser";
import type { Account } from "../ports/accounts";
import { issueResetLink, resetEmail } from "./password-reset";

/**
 * User management for superusers (/admin/users). Every function asks `requireSuperuser`
 * itself, so a caller that forgot its guard still cannot act.
 */
export interface UserListing {
  id: number;
  email: string;
  name: string;
  superuser: boolean;
  organizations: { slug: string; name: string; role: string }[];
  createdAt: number;
  /** The newest sign-in or use of any of the user's sessions; null when there is none. */
  lastActiveAt: number | null;
}

type Actor = Pick<Account, "id" | "is_superuser">;

export async function listUsers(ctx: Ctx, actor: Actor): Promise<UserListing[]> {
  requireSuperuser(actor, "user:admin");
  return (await ctx.accounts.usersWithActivity()).map(({ user, organizations, lastActiveAt }) => ({
    id: user.id,
    email: user.email,
    name: user.name,
    superuser: user.is_superuser === 1,
    organizations,
    createdAt: user.created_at,
    lastActiveAt,
  }));
}

async function target(ctx: Ctx, id: number): Promise<Account> {
  const user = await ctx.accounts.userById(id);
  if (!user) throw notFound("That user does not exist.");
  return user;
}

/** Grants or takes the superuser flag; nobody takes their own, and the last one stays. */
export async function setSuperuser(ctx: Ctx, actor: Actor, input: { userId: number; superuser: boolean }): Promise<Account> {
  requireSuperuser(actor, "user:admin");
  const user = await target(ctx, input.userId);
  if (!input.superuser && user.id === actor.id) throw conflict("You cannot remove your own superuser flag; ask another superuser.");
  const result = await ctx.accounts.setSuperuser(user.id, input.superuser, actor.id);
  if ("account" in result) return result.account;
  if (result.refused === "last-superuser") throw conflict("This is the last superuser; make someone else one first.");
  throw forbidden("You are no longer a superuser.");
}

/**
 * Deletes a user with their sessions, memberships, tokens and reset links (issues they were
 * assigned become unassigned). Not oneself, and not the last owner of an organization: that
 * organization would have nobody left to manage it.
 */
export async function deleteUser(ctx: Ctx, actor: Actor, userId: number): Promise<void> {
  requireSuperuser(actor, "user:admin");
  const user = await target(ctx, userId);
  if (user.id === actor.id) throw conflict("You cannot delete your own account.");
  const { lastOwnerOf } = await ctx.accounts.deleteUserUnlessLastOwner(user.id);
  if (lastOwnerOf.length > 0) {
    throw conflict(`${user.email} is the last owner of ${lastOwnerOf.join(", ")}; make someone else an owner there first.`);
  }
}

/**
 * A reset link for a user, chosen by a superuser: mailed when email is set up (`sent`), else
 * handed back for the superuser to pass on (`link`).
 */
export async function adminResetLink(ctx: Ctx, actor: Actor, userId: number): Promise<{ sent: true } | { sent: false; link: string }> {
  requireSuperuser(actor, "user:admin");
  const user = await target(ctx, userId);
  const link = await issueResetLink(ctx, user.id);
  if (!ctx.mailer) return { sent: false, link };
  await ctx.mailer.send(resetEmail(ctx, user, link));
  return { sent: true };
}
