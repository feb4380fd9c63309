import type { User } from "../../db/schema";
import type { Ctx } from "../context";
import { conflict, notFound } from "../errors";
import { requireSuperuser } from "../permissions/superuser";
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
  /** The newest use of any of the user's sessions; null when they never signed in. */
  lastActiveAt: number | null;
}

export async function listUsers(ctx: Ctx, actor: User): Promise<UserListing[]> {
  requireSuperuser(actor, "user:admin");
  const users = await ctx.db.selectFrom("users").select(["id", "email", "name", "is_superuser", "created_at"]).orderBy("email").execute();
  const memberships = await ctx.db
    .selectFrom("memberships")
    .innerJoin("organizations", "organizations.id", "memberships.organization_id")
    .select(["memberships.user_id", "organizations.slug", "organizations.name", "memberships.role"])
    .orderBy("organizations.slug")
    .execute();
  const sessions = await ctx.db
    .selectFrom("sessions")
    .select(["user_id", (eb) => eb.fn.max("created_at").as("created"), (eb) => eb.fn.max("last_seen_at").as("seen")])
    .groupBy("user_id")
    .execute();
  const active = new Map(sessions.map((s) => [s.user_id, Math.max(Number(s.created ?? 0), Number(s.seen ?? 0)) || null]));
  return users.map((u) => ({
    id: u.id,
    email: u.email,
    name: u.name,
    superuser: u.is_superuser === 1,
    organizations: memberships.filter((m) => m.user_id === u.id).map(({ slug, name, role }) => ({ slug, name, role })),
    createdAt: u.created_at,
    lastActiveAt: active.get(u.id) ?? null,
  }));
}

async function target(ctx: Ctx, id: number): Promise<User> {
  const user = await ctx.db.selectFrom("users").selectAll().where("id", "=", id).executeTakeFirst();
  if (!user) throw notFound("That user does not exist.");
  return user;
}

/** Grants or takes the superuser flag; nobody takes their own, and the last one stays. */
export async function setSuperuser(ctx: Ctx, actor: User, input: { userId: number; superuser: boolean }): Promise<User> {
  requireSuperuser(actor, "user:admin");
  const user = await target(ctx, input.userId);
  if (!input.superuser) {
    if (user.id === actor.id) throw conflict("You cannot remove your own superuser flag; ask another superuser.");
    const others = await ctx.db
      .selectFrom("users")
      .select((eb) => eb.fn.countAll<number>().as("n"))
      .where("is_superuser", "=", 1)
      .where("id", "!=", user.id)
      .executeTakeFirstOrThrow();
    if (Number(others.n) === 0) throw conflict("This is the last superuser; make someone else one first.");
  }
  return ctx.db
    .updateTable("users")
    .set({ is_superuser: input.superuser ? 1 : 0 })
    .where("id", "=", user.id)
    .returningAll()
    .executeTakeFirstOrThrow();
}

/**
 * Deletes a user with their sessions, memberships, tokens and reset links (the foreign keys
 * cascade; issues they were assigned become unassigned). Not oneself, and not the last owner
 * of an organization: that organization would have nobody to manage it.
 */
export async function deleteUser(ctx: Ctx, actor: User, userId: number): Promise<void> {
  requireSuperuser(actor, "user:admin");
  const user = await target(ctx, userId);
  if (user.id === actor.id) throw conflict("You cannot delete your own account.");
  await ctx.db.transaction().execute(async (trx) => {
    const owned = await trx
      .selectFrom("memberships as mine")
      .innerJoin("organizations", "organizations.id", "mine.organization_id")
      .select("organizations.slug")
      .where("mine.user_id", "=", user.id)
      .where("mine.role", "=", "owner")
      .where(({ not, exists, selectFrom }) =>
        not(
          exists(
            selectFrom("memberships as other")
              .select("other.user_id")
              .whereRef("other.organization_id", "=", "mine.organization_id")
              .where("other.role", "=", "owner")
              .where("other.user_id", "!=", user.id),
          ),
        ),
      )
      .orderBy("organizations.slug")
      .execute();
    if (owned.length > 0) {
      const slugs = owned.map((o) => o.slug).join(", ");
      throw conflict(`${user.email} is the last owner of ${slugs}; make someone else an owner there first.`);
    }
    await trx.deleteFrom("memberships").where("user_id", "=", user.id).execute();
    await trx.deleteFrom("users").where("id", "=", user.id).execute();
  });
}

/**
 * A reset link for a user, chosen by a superuser: mailed when email is set up (`sent`), else
 * handed back for the superuser to pass on (`link`).
 */
export async function adminResetLink(ctx: Ctx, actor: User, userId: number): Promise<{ sent: true } | { sent: false; link: string }> {
  requireSuperuser(actor, "user:admin");
  const user = await target(ctx, userId);
  const link = await issueResetLink(ctx, user.id);
  if (!ctx.mailer) return { sent: false, link };
  await ctx.mailer.send(resetEmail(ctx, user, link));
  return { sent: true };
}
