import type { Kysely } from "kysely";
import type { User } from "../core/accounts/user";
import type { Account, AccountStore, AttemptCount, NewAccountRow, NewSessionRow, SessionRow, UserActivity } from "../core/ports/accounts";
import { countAttempt, forgetExpiredAttempts, refundAttempt } from "./login-attempts";
import type { Dialect } from "./connect";
import { insertOrganizationRows } from "./organization-store";
import type { DB } from "./schema";

/** A user's columns but the password hash: what pages and the API get. */
const USER_COLUMNS = ["users.id", "users.email", "users.name", "users.is_superuser", "users.created_at"] as const;

/** Adds a user unless the email is taken (in the caller's transaction, for the first run's setup). */
async function insertUserRow(db: Kysely<DB>, user: NewAccountRow, now: number): Promise<User | null> {
  const existing = await db.selectFrom("users").select("id").where("email", "=", user.email).executeTakeFirst();
  if (existing) return null;
  return db
    .insertInto("users")
    .values({ email: user.email, name: user.name, password_hash: user.passwordHash, is_superuser: user.superuser ? 1 : 0, created_at: now })
    .returning(["id", "email", "name", "is_superuser", "created_at"])
    .executeTakeFirstOrThrow();
}

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

  async credentials(email: string): Promise<{ user: User; passwordHash: string } | null> {
    const row = await this.db
      .selectFrom("users")
      .select(USER_COLUMNS)
      .select("password_hash")
      .where("email", "=", email)
      .executeTakeFirst();
    if (!row) return null;
    const { password_hash, ...user } = row;
    return { user, passwordHash: password_hash };
  }

  addUser(user: NewAccountRow, now: number): Promise<User | null> {
    return insertUserRow(this.db, user, now);
  }

  addFirstAdmin(
    admin: NewAccountRow,
    org: { slug: string; name: string },
    now: number,
  ): Promise<{ user: User } | { refused: "set-up" | "slug-taken" }> {
    return this.db.transaction().execute(async (trx) => {
      if ((await trx.selectFrom("users").select("id").limit(1).execute()).length > 0) return { refused: "set-up" as const };
      const taken = await trx.selectFrom("organizations").select("id").where("slug", "=", org.slug).executeTakeFirst();
      if (taken) return { refused: "slug-taken" as const };
      const user = await insertUserRow(trx, admin, now);
      // Neither can be taken now but by a concurrent writer: the error rolls the user back.
      if (!user || !(await insertOrganizationRows(trx, org, user.id, now))) throw new Error("first run: written concurrently");
      return { user };
    });
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

  async addSession(session: NewSessionRow): Promise<void> {
    await this.db
      .insertInto("sessions")
      .values({
        id: session.id,
        user_id: session.userId,
        created_at: session.createdAt,
        expires_at: session.expiresAt,
        ip: session.ip,
        user_agent: session.userAgent,
      })
      .execute();
  }

  async sessionUser(sessionId: string, now: number): Promise<{ user: User; lastSeenAt: number } | null> {
    const row = await this.db
      .selectFrom("sessions")
      .innerJoin("users", "users.id", "sessions.user_id")
      .select(USER_COLUMNS)
      .select(["sessions.created_at as session_created_at", "sessions.last_seen_at"])
      .where("sessions.id", "=", sessionId)
      .where("sessions.expires_at", ">", now)
      .executeTakeFirst();
    if (!row) return null;
    const { session_created_at, last_seen_at, ...user } = row;
    return { user, lastSeenAt: last_seen_at ?? session_created_at };
  }

  async touchSession(sessionId: string, now: number, since: number): Promise<void> {
    // The WHERE makes concurrent requests of one session write it once.
    await this.db
      .updateTable("sessions")
      .set({ last_seen_at: now })
      .where("id", "=", sessionId)
      .where((eb) => eb.or([eb("last_seen_at", "is", null), eb("last_seen_at", "<=", since)]))
      .execute();
  }

  async endSession(sessionId: string): Promise<void> {
    await this.db.deleteFrom("sessions").where("id", "=", sessionId).execute();
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
