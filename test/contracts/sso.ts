import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Role } from "../../src/core/orgs/roles";
import type { SsoProviderRecord, SsoStore } from "../../src/core/ports/sso";
import type { OrgWorld } from "../support/org-world";

export interface SsoStoreFixture {
  store: SsoStore;
  world: OrgWorld;
  /** The slug (and name) of `world.orgId`. */
  orgSlug: string;
  addMembership(orgId: number, userId: number, role: Role): Promise<void>;
  cleanup(): Promise<void>;
}

const ISSUER = "https://idp.example.com";

/** What every SsoStore (src/core/ports/sso.ts) does. */
export function ssoStoreContract(name: string, make: () => Promise<SsoStoreFixture>): void {
  describe(name, () => {
    let f: SsoStoreFixture;
    beforeAll(async () => {
      f = await make();
    });
    afterAll(() => f.cleanup());

    const provider = (over: Partial<SsoProviderRecord> = {}): Omit<SsoProviderRecord, "requireSso" | "updatedAt"> => ({
      organizationId: f.world.orgId,
      issuer: ISSUER,
      clientId: "client",
      clientSecret: "sealed",
      metadata: "{}",
      defaultRole: "member",
      defaultTeamId: null,
      ...over,
    });

    it("puts a provider, keeps its requirement across a replacement, and finds it by slug", async () => {
      const { orgId, otherOrgId, teamId } = f.world;
      expect(await f.store.provider(orgId)).toBeNull();
      expect(await f.store.setRequireSso(orgId, true, 1_000)).toBe(false);
      await f.store.putProvider(provider(), 1_000);
      expect(await f.store.setRequireSso(orgId, true, 2_000)).toBe(true);
      await f.store.putProvider(provider({ clientId: "client-2", defaultRole: "admin", defaultTeamId: teamId }), 3_000);
      const stored = {
        ...provider({ clientId: "client-2", defaultRole: "admin", defaultTeamId: teamId }),
        requireSso: true,
        updatedAt: 3_000,
      };
      expect(await f.store.provider(orgId)).toEqual(stored);
      expect(await f.store.provider(otherOrgId)).toBeNull();
      expect(await f.store.providerBySlug(f.orgSlug)).toEqual({ org: { id: orgId, slug: f.orgSlug, name: f.orgSlug }, provider: stored });
      expect(await f.store.providerBySlug("nope")).toBeNull();
    });

    it("links identities to accounts, creates password-less accounts once, and forgets them with the provider", async () => {
      const { orgId, memberId, outsiderId } = f.world;
      await f.store.linkIdentity({ organizationId: orgId, issuer: ISSUER, subject: "sub-1", userId: memberId }, 1_000);
      await f.store.linkIdentity({ organizationId: orgId, issuer: ISSUER, subject: "sub-1", userId: outsiderId }, 1_000);
      expect((await f.store.identityUser(orgId, ISSUER, "sub-1", 2_000))?.id).toBe(memberId);
      expect(await f.store.identityUser(orgId, "https://other.example.com", "sub-1", 2_000)).toBeNull();
      expect(await f.store.identityUser(f.world.otherOrgId, ISSUER, "sub-1", 2_000)).toBeNull();

      const user = { email: `${f.orgSlug}-new@example.com`, name: "New", unusablePasswordHash: "!unusable" };
      const created = await f.store.createSsoUser(user, { organizationId: orgId, issuer: ISSUER, subject: "sub-2" }, 3_000);
      expect(created).toMatchObject({ email: user.email, name: "New", password_hash: "!unusable" });
      expect(await f.store.identityUser(orgId, ISSUER, "sub-2", 4_000)).toEqual(created);
      expect(await f.store.createSsoUser(user, { organizationId: orgId, issuer: ISSUER, subject: "sub-3" }, 3_000)).toBeNull();
      expect(await f.store.identityUser(orgId, ISSUER, "sub-3", 4_000)).toBeNull();

      expect(await f.store.deleteProvider(orgId)).toBe(true);
      expect(await f.store.deleteProvider(orgId)).toBe(false);
      expect(await f.store.provider(orgId)).toBeNull();
      expect(await f.store.identityUser(orgId, ISSUER, "sub-1", 5_000)).toBeNull();
    });

    it("names the organizations whose SSO binds a user who is not their owner", async () => {
      const { orgId, otherOrgId, memberId, outsiderId } = f.world;
      await f.store.putProvider(provider(), 1_000);
      await f.store.putProvider(provider({ organizationId: otherOrgId }), 1_000);
      await f.store.setRequireSso(orgId, true, 1_000);
      await f.addMembership(otherOrgId, memberId, "owner");
      await f.addMembership(orgId, outsiderId, "owner");
      expect(await f.store.requirementsFor(memberId)).toEqual([{ slug: f.orgSlug, name: f.orgSlug }]);
      expect(await f.store.requirementsFor(outsiderId)).toEqual([]);
      await f.store.setRequireSso(otherOrgId, true, 1_000);
      expect(await f.store.requirementsFor(memberId)).toHaveLength(1);
      expect((await f.store.membershipOrgIds(memberId)).sort((a, b) => a - b)).toEqual([orgId, otherOrgId].sort((a, b) => a - b));
    });
  });
}
