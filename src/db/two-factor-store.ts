import type { Kysely } from "kysely";
import type { NewSessionRow } from "../core/ports/accounts";
import type { ChallengeRow, TotpRow, TwoFactorStore } from "../core/ports/two-factor";
import type { DB } from "./schema";

/** Two-factor sign-in's storage (src/core/ports/two-factor.ts) over the main database, both dialects. */
export class KyselyTwoFactorStore implements TwoFactorStore {
  constructor(private readonly db: Kysely<DB>) {}

  async totp(userId: number): Promise<TotpRow | null> {
    const row = await this.db
      .selectFrom("user_totp")
      .select(["secret", "last_step", "created_at"])
      .where("user_id", "=", userId)
      .executeTakeFirst();
    return row ? { secret: row.secret, lastStep: row.last_step, createdAt: row.created_at } : null;
  }

  enable(userId: number, secret: string, step: number, recoveryHashes: readonly string[], now: number): Promise<boolean> {
    return this.db.transaction().execute(async (trx) => {
      // The primary key makes a second enabling a no-op, on either dialect, however concurrent.
      const inserted = await trx
        .insertInto("user_totp")
        .values({ user_id: userId, secret, last_step: step, created_at: now })
        .onConflict((oc) => oc.column("user_id").doNothing())
        .returning("user_id")
        .executeTakeFirst();
      if (!inserted) return false;
      await trx.deleteFrom("recovery_codes").where("user_id", "=", userId).execute();
      await trx
        .insertInto("recovery_codes")
        .values(recoveryHashes.map((code_hash) => ({ user_id: userId, code_hash, used_at: null, created_at: now })))
        .execute();
      return true;
    });
  }

  async disable(userId: number): Promise<void> {
    await this.db.transaction().execute(async (trx) => {
      await trx.deleteFrom("user_totp").where("user_id", "=", userId).execute();
      await trx.deleteFrom("recovery_codes").where("user_id", "=", userId).execute();
    });
  }

  async replaceRecoveryCodes(userId: number, recoveryHashes: readonly string[], now: number): Promise<void> {
    await this.db.transaction().execute(async (trx) => {
      await trx.deleteFrom("recovery_codes").where("user_id", "=", userId).execute();
      await trx
        .insertInto("recovery_codes")
        .values(recoveryHashes.map((code_hash) => ({ user_id: userId, code_hash, used_at: null, created_at: now })))
        .execute();
    });
  }

  async useStep(userId: number, step: number): Promise<boolean> {
    // One UPDATE with the comparison in its WHERE: PostgreSQL re-checks it on the locked row, SQLite has one writer.
    const result = await this.db
      .updateTable("user_totp")
      .set({ last_step: step })
      .where("user_id", "=", userId)
      .where((eb) => eb.or([eb("last_step", "is", null), eb("last_step", "<", step)]))
      .executeTakeFirst();
    return Number(result.numUpdatedRows) > 0;
  }

  async useRecoveryCode(userId: number, codeHash: string, now: number): Promise<boolean> {
    const result = await this.db
      .updateTable("recovery_codes")
      .set({ used_at: now })
      .where("user_id", "=", userId)
      .where("code_hash", "=", codeHash)
      .where("used_at", "is", null)
      .executeTakeFirst();
    return Number(result.numUpdatedRows) > 0;
  }

  async recoveryCodeUsed(userId: number, codeHash: string): Promise<boolean> {
    const row = await this.db
      .selectFrom("recovery_codes")
      .select("used_at")
      .where("user_id", "=", userId)
      .where("code_hash", "=", codeHash)
      .where("used_at", "is not", null)
      .executeTakeFirst();
    return row !== undefined;
  }

  async recoveryCodesLeft(userId: number): Promise<number> {
    const row = await this.db
      .selectFrom("recovery_codes")
      .select((eb) => eb.fn.countAll<number>().as("n"))
      .where("user_id", "=", userId)
      .where("used_at", "is", null)
      .executeTakeFirstOrThrow();
    return Number(row.n);
  }

  async addChallenge(row: NewSessionRow): Promise<void> {
    await this.db
      .insertInto("login_challenges")
      .values({
        id: row.id,
        user_id: row.userId,
        created_at: row.createdAt,
        expires_at: row.expiresAt,
        ip: row.ip,
        user_agent: row.userAgent,
      })
      .execute();
  }

  async challenge(id: string, now: number): Promise<ChallengeRow | null> {
    const row = await this.db
      .selectFrom("login_challenges")
      .select(["user_id", "expires_at"])
      .where("id", "=", id)
      .where("expires_at", ">", now)
      .executeTakeFirst();
    return row ? { userId: row.user_id, expiresAt: row.expires_at } : null;
  }

  async takeChallenge(id: string): Promise<boolean> {
    const result = await this.db.deleteFrom("login_challenges").where("id", "=", id).executeTakeFirst();
    return Number(result.numDeletedRows) > 0;
  }

  async forgetExpiredChallenges(now: number): Promise<void> {
    await this.db.deleteFrom("login_challenges").where("expires_at", "<=", now).execute();
  }

  async setOrgRequirement(orgId: number, required: boolean): Promise<void> {
    await this.db
      .updateTable("organizations")
      .set({ require_2fa: required ? 1 : 0 })
      .where("id", "=", orgId)
      .execute();
  }
}
