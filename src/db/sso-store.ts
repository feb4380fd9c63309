import type { Kysely, Selectable } from "kysely";
import type { Account } from "../core/ports/accounts";
import type { SsoProviderRecord, SsoRequirement, SsoStore } from "../core/ports/sso";
import type { DB } from "./schema";
import type { SsoProvidersTable } from "./schema-sso";

const toRecord = (row: Selectable<SsoProvidersTable>): SsoProviderRecord => ({
  organizationId: row.organization_id,
  issuer: row.issuer,
  clientId: row.client_id,
  clientSecret: row.client_secret,
  metadata: row.metadata,
  defaultRole: row.default_role,
  defaultTeamId: row.default_team_id,
  requireSso: row.require_sso === 1,
  updatedAt: row.updated_at,
});

/** Single sign-on's storage (src/core/ports/sso.ts) over the main database. */
export class KyselySsoStore implements SsoStore {
  constructor(private readonly db: Kysely<DB>) {}

  async provider(organizationId: number): Promise<SsoProviderRecord | null> {
    const row = await this.db.selectFrom("sso_providers").selectAll().where("organization_id", "=", organizationId).executeTakeFirst();
    return row ? toRecord(row) : null;
  }

  async providerBySlug(slug: string) {
    const row = await this.db
      .selectFrom("sso_providers")
      .innerJoin("organizations", "organizations.id", "sso_providers.organization_id")
      .selectAll("sso_providers")
      .select(["organizations.slug", "organizations.name"])
      .where("organizations.slug", "=", slug)
      .executeTakeFirst();
    if (!row) return null;
    const { slug: orgSlug, name, ...provider } = row;
    return { org: { id: provider.organization_id, slug: orgSlug, name }, provider: toRecord(provider) };
  }

  async putProvider(record: Omit<SsoProviderRecord, "requireSso" | "updatedAt">, now: number): Promise<void> {
    const values = {
      issuer: record.issuer,
      client_id: record.clientId,
      client_secret: record.clientSecret,
      metadata: record.metadata,
      default_role: record.defaultRole,
      default_team_id: record.defaultTeamId,
      updated_at: now,
    };
    await this.db
      .insertInto("sso_providers")
      .values({ organization_id: record.organizationId, created_at: now, ...values })
      .onConflict((oc) => oc.column("organization_id").doUpdateSet(values))
      .execute();
  }

  async setRequireSso(organizationId: number, required: boolean, now: number): Promise<boolean> {
    const result = await this.db
      .updateTable("sso_providers")
      .set({ require_sso: required ? 1 : 0, updated_at: now })
      .where("organization_id", "=", organizationId)
      .executeTakeFirst();
    return Number(result.numUpdatedRows) > 0;
  }

  deleteProvider(organizationId: number): Promise<boolean> {
    return this.db.transaction().execute(async (trx) => {
      await trx.deleteFrom("sso_identities").where("organization_id", "=", organizationId).execute();
      const result = await trx.deleteFrom("sso_providers").where("organization_id", "=", organizationId).executeTakeFirst();
      return Number(result.numDeletedRows) > 0;
    });
  }

  async identityUser(organizationId: number, issuer: string, subject: string, now: number): Promise<Account | null> {
    const row = await this.db
      .selectFrom("sso_identities")
      .innerJoin("users", "users.id", "sso_identities.user_id")
      .selectAll("users")
      .select("sso_identities.id as identity_id")
      .where("sso_identities.organization_id", "=", organizationId)
      .where("sso_identities.issuer", "=", issuer)
      .where("sso_identities.subject", "=", subject)
      .executeTakeFirst();
    if (!row) return null;
    const { identity_id, ...user } = row;
    await this.db.updateTable("sso_identities").set({ last_sign_in_at: now }).where("id", "=", identity_id).execute();
    return user;
  }

  async linkIdentity(link: { organizationId: number; issuer: string; subject: string; userId: number }, now: number): Promise<void> {
    await this.db
      .insertInto("sso_identities")
      .values({
        organization_id: link.organizationId,
        issuer: link.issuer,
        subject: link.subject,
        user_id: link.userId,
        created_at: now,
        last_sign_in_at: now,
      })
      .onConflict((oc) => oc.columns(["organization_id", "issuer", "subject"]).doNothing())
      .execute();
  }

  createSsoUser(
    user: { email: string; name: string; unusablePasswordHash: string },
    link: { organizationId: number; issuer: string; subject: string },
    now: number,
  ): Promise<Account | null> {
    return this.db.transaction().execute(async (trx) => {
      // The unique email decides a race between two first sign-ins: the loser finds the account.
      const created = await trx
        .insertInto("users")
        .values({ email: user.email, name: user.name, password_hash: user.unusablePasswordHash, is_superuser: 0, created_at: now })
        .onConflict((oc) => oc.column("email").doNothing())
        .returningAll()
        .executeTakeFirst();
      if (!created) return null;
      await trx
        .insertInto("sso_identities")
        .values({
          organization_id: link.organizationId,
          issuer: link.issuer,
          subject: link.subject,
          user_id: created.id,
          created_at: now,
          last_sign_in_at: now,
        })
        .execute();
      return created;
    });
  }

  async requirementsFor(userId: number): Promise<SsoRequirement[]> {
    return this.db
      .selectFrom("memberships")
      .innerJoin("sso_providers", "sso_providers.organization_id", "memberships.organization_id")
      .innerJoin("organizations", "organizations.id", "memberships.organization_id")
      .select(["organizations.slug", "organizations.name"])
      .where("memberships.user_id", "=", userId)
      .where("memberships.role", "!=", "owner")
      .where("sso_providers.require_sso", "=", 1)
      .orderBy("organizations.slug")
      .execute();
  }

  async membershipOrgIds(userId: number): Promise<number[]> {
    const rows = await this.db.selectFrom("memberships").select("organization_id").where("user_id", "=", userId).execute();
    return rows.map((r) => r.organization_id);
  }
}
