import type { Kysely } from "kysely";
import type { User } from "../core/accounts/user";
import type { NewTokenRow, StoredToken, TokenOwner, TokenStore } from "../core/ports/tokens";
import type { ApiToken, DB } from "./schema";

const storedToken = (r: ApiToken): StoredToken => ({
  id: r.id,
  name: r.name,
  prefix: r.token_prefix,
  scopes: r.scopes,
  createdAt: r.created_at,
  lastUsedAt: r.last_used_at,
  expiresAt: r.expires_at,
  revokedAt: r.revoked_at,
});

/** API tokens (src/core/ports/tokens.ts) on the main database, SQLite and PostgreSQL alike. */
export class KyselyTokenStore implements TokenStore {
  constructor(private readonly db: Kysely<DB>) {}

  async add(token: NewTokenRow): Promise<number> {
    const row = await this.db
      .insertInto("api_tokens")
      .values({
        user_id: token.userId,
        organization_id: token.organizationId,
        name: token.name,
        token_hash: token.hash,
        token_prefix: token.prefix,
        created_at: token.createdAt,
        scopes: token.scopes,
        expires_at: token.expiresAt,
      })
      .returning("id")
      .executeTakeFirstOrThrow();
    return row.id;
  }

  async personal(userId: number): Promise<StoredToken[]> {
    const rows = await this.db
      .selectFrom("api_tokens")
      .selectAll()
      .where("user_id", "=", userId)
      .where("organization_id", "is", null)
      .orderBy("id", "desc")
      .execute();
    return rows.map(storedToken);
  }

  async ofOrganization(organizationId: number): Promise<(StoredToken & { createdBy: string })[]> {
    const rows = await this.db
      .selectFrom("api_tokens")
      .innerJoin("users", "users.id", "api_tokens.user_id")
      .selectAll("api_tokens")
      .select("users.email as created_by")
      .where("api_tokens.organization_id", "=", organizationId)
      .orderBy("api_tokens.id", "desc")
      .execute();
    return rows.map((r) => ({ ...storedToken(r), createdBy: r.created_by }));
  }

  async revoke(tokenId: number, owner: TokenOwner, now: number): Promise<boolean> {
    let query = this.db.selectFrom("api_tokens").select(["id", "revoked_at"]).where("id", "=", tokenId);
    query =
      "userId" in owner
        ? query.where("user_id", "=", owner.userId).where("organization_id", "is", null)
        : query.where("organization_id", "=", owner.organizationId);
    const own = await query.executeTakeFirst();
    if (!own) return false;
    if (own.revoked_at === null) await this.db.updateTable("api_tokens").set({ revoked_at: now }).where("id", "=", tokenId).execute();
    return true;
  }

  async byHash(hash: string): Promise<{ token: StoredToken & { organizationId: number | null }; user: User } | null> {
    const row = await this.db
      .selectFrom("api_tokens")
      .innerJoin("users", "users.id", "api_tokens.user_id")
      .selectAll("api_tokens")
      .select(["users.email", "users.name as user_name", "users.is_superuser", "users.created_at as user_created_at"])
      .where("api_tokens.token_hash", "=", hash)
      .executeTakeFirst();
    if (!row) return null;
    return {
      token: { ...storedToken(row), organizationId: row.organization_id },
      user: { id: row.user_id, email: row.email, name: row.user_name, is_superuser: row.is_superuser, created_at: row.user_created_at },
    };
  }

  async markUsed(tokenId: number, now: number): Promise<void> {
    await this.db.updateTable("api_tokens").set({ last_used_at: now }).where("id", "=", tokenId).execute();
  }
}
