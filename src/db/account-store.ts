import type { Kysely } from "kysely";
import type { Account, AccountStore, AttemptCount, SessionRow, UserActivity } from "../core/ports/accounts";
import { countAttempt, forgetExpiredAttempts, refundAttempt } from "./login-attempts";
import type { Dialect } from "./connect";
import type { DB } from "./schema";

/** The account features' storage (src/core/ports/accounts.ts) over the main database. */
export class KyselyAccountStore implements AccountStore {
  constructor(
    private readonly db: Kysely<DB>,
    private readonly dialect: Dialect = "sqlite",
  ) {}

  countAttempt(key: string, now: number, windowMs: number): Promise<AttemptCount> {
    return countAttempt(this.db, key, now, windowMs);
  }

  forgetExpiredAttempts(now: number, windowMs: number): Promise<void> {
    return forgetExpiredAttempts(this.db, now, windowMs);
  }

  refundAttempt(key: string, windowStart: number): Promise<void> {
    return refundAttempt(this.db, key, windowStart);
  }

  async userByEmail(email: string): Promise<Account | null> {
    return (await this.db.selectFrom("users").selectAll().where("email", "=", email).executeTakeFirst()) ?? null;
  }

  async userById(id: number): Promise<Account | null> {
    return (await this.db.selectFrom("users").selectAll().where("id", "=", id).executeTakeFirst()) ?? null;
  }

  async countUsers(): Promise<number> {
    const row = await this.db
      .selectFrom("users")
      .select((eb) => eb.fn.countAll<number>().as("n"))
      .executeTakeFirstOrThrow();
    return Number(row.n);
  }

  async addResetToken(row: { id: string; userId: number; createdAt: number; expiresAt: number }): Promise<void> {
    await this.db
      .insertInto("password_resets")
      .values({ id: row.id, user_id: row.userId, created_at: row.createdAt, expires_at: row.expiresAt })
      .execute();
  }

  async resetToken(id: string): Promise<{ user: Pick<Account, "id" | "email">; expiresAt: number } | null> {
    const row = await this.db
      .selectFrom("password_resets")
      .innerJoin("users", "users.id", "password_resets.user_id")
      .select(["users.id", "users.email", "password_resets.expires_at"])
      .where("password_resets.id", "=", id)
      .executeTakeFirst();
    return row ? { user: { id: row.id, email: row.email }, expiresAt: row.expires_at } : null;
  }

  useResetToken(id: string, now: number, passwordHash: string): Promise<Account | null> {
    return this.db.transaction().execute(async (trx) => {
      const used = await trx.deleteFrom("password_resets").where("id", "=", id).returning(["user_id", "expires_at"]).executeTakeFirst();
      if (!used || now >= used.expires_at) return null;
      await trx.deleteFrom("password_resets").where("user_id", "=", used.user_id).execute();
      await trx.updateTable("users").set({ password_hash: passwordHash }).where("id", "=", used.user_id).execute();
      await trx.deleteFrom("sessions").where("user_id", "=", used.user_id).execute();
      return trx.selectFrom("users").selectAll().where("id", "=", used.user_id).executeTakeFirstOrThrow();
    });
  }

  async setPassword(userId: number, passwordHash: string, keepSessionId: string | null): Promise<void> {
    await this.db.transaction().execute(async (trx) => {
      await trx.updateTable("users").set({ password_hash: passwordHash }).where("id", "=", userId).execute();
      await trx.deleteFrom("password_resets").where("user_id", "=", userId).execute();
      let sessions = trx.deleteFrom("sessions").where("user_id", "=", userId);
      if (keepSessionId !== null) sessions = sessions.where("id", "!=", keepSessionId);
      await sessions.execute();
    });
  }

  liveSessions(userId: number, now: number): Promise<SessionRow[]> {
    return this.db
      .selectFrom("sessions")
      .select(["id", "ip", "user_agent", "created_at", "last_seen_at"])
      .where("user_id", "=", userId)
      .where("expires_at", ">", now)
      .execute();
  }

  async deleteSession(userId: number, sessionId: string): Promise<boolean> {
    const result = await this.db.deleteFrom("sessions").where("id", "=", sessionId).where("user_id", "=", userId).executeTakeFirst();
    return Number(result.numDeletedRows) > 0;
  }

  async deleteSessions(userId: number, exceptSessionId: string | null): Promise<void> {
    let query = this.db.deleteFrom("sessions").where("user_id", "=", userId);
    if (exceptSessionId !== null) query = query.where("id", "!=", exceptSessionId);
    await query.execute();
  }

  async usersWithActivity(): Promise<UserActivity[]> {
    const users = await this.db
      .selectFrom("users")
      .select(["id", "email", "name", "is_superuser", "created_at"])
      .orderBy("email")
      .execute();
    const memberships = await this.db
      .selectFrom("memberships")
      .innerJoin("organizations", "organizations.id", "memberships.organization_id")
      .select(["memberships.user_id", "organizations.slug", "organizations.name", "memberships.role"])
      .orderBy("organizations.slug")
      .execute();
    const sessions = await this.db
      .selectFrom("sessions")
      .select(["user_id", (eb) => eb.fn.max("created_at").as("created"), (eb) => eb.fn.max("last_seen_at").as("seen")])
      .groupBy("user_id")
      .execute();
    const active = new Map(sessions.map((s) => [s.user_id, Math.max(Number(s.created ?? 0), Number(s.seen ?? 0)) || null]));
    return users.map((user) => ({
      user,
      organizations: memberships.filter((m) => m.user_id === user.id).map(({ slug, name, role }) => ({ slug, name, role })),
      lastActiveAt: active.get(user.id) ?? null,
    }));
  }

  setSuperuser(
    userId: number,
    superuser: boolean,
    actorId: number,
  ): Promise<{ account: Account } | { refused: "last-superuser" | "actor-not-superuser" }> {
    return this.db.transaction().execute(async (trx) => {
      // Two superusers taking each other's flag at once must not leave none: on PostgreSQL the
      // superuser rows are locked, so the second sees the first's change; SQLite has one writer.
      const query = trx.selectFrom("users").select("id").where("is_superuser", "=", 1);
      const current = new Set((await (this.dialect === "postgres" ? query.forUpdate() : query).execute()).map((r) => r.id));
      if (!superuser && [...current].every((id) => id === userId)) return { refused: "last-superuser" as const };
      if (!current.has(actorId)) return { refused: "actor-not-superuser" as const };
      const account = await trx
        .updateTable("users")
        .set({ is_superuser: superuser ? 1 : 0 })
        .where("id", "=", userId)
        .returningAll()
        .executeTakeFirstOrThrow();
      return { account };
    });
  }

  deleteUserUnlessLastOwner(userId: number): Promise<{ lastOwnerOf: string[] }> {
    return this.db.transaction().execute(async (trx) => {
      const owned = await trx
        .selectFrom("memberships as mine")
        .innerJoin("organizations", "organizations.id", "mine.organization_id")
        .select("organizations.slug")
        .where("mine.user_id", "=", userId)
        .where("mine.role", "=", "owner")
        .where(({ not, exists, selectFrom }) =>
          not(
            exists(
              selectFrom("memberships as other")
                .select("other.user_id")
                .whereRef("other.organization_id", "=", "mine.organization_id")
                .where("other.role", "=", "owner")
                .where("other.user_id", "!=", userId),
            ),
          ),
        )
        .orderBy("organizations.slug")
        .execute();
      if (owned.length > 0) return { lastOwnerOf: owned.map((o) => o.slug) };
      // Sessions, tokens and reset links go by their foreign keys (ON DELETE CASCADE).
      await trx.deleteFrom("memberships").where("user_id", "=", userId).execute();
      await trx.deleteFrom("users").where("id", "=", userId).execute();
      return { lastOwnerOf: [] };
    });
  }
}
