import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { User } from "../../src/core/accounts/user";
import type { NewTokenRow, TokenStore } from "../../src/core/ports/tokens";

export interface TokenStoreFixture {
  store: TokenStore;
  /** Two users, and an organization to hold tokens. */
  users: [User, User];
  organizationId: number;
  cleanup(): Promise<void>;
}

/** What every TokenStore (src/core/ports/tokens.ts) does. */
export function tokenStoreContract(name: string, make: () => Promise<TokenStoreFixture>): void {
  describe(name, () => {
    let f: TokenStoreFixture;
    beforeAll(async () => {
      f = await make();
    });
    afterAll(() => f.cleanup());

    const row = (over: Partial<NewTokenRow>): NewTokenRow => ({
      userId: f.users[0].id,
      organizationId: null,
      name: "cli",
      hash: "h",
      prefix: "tlt_abc",
      scopes: null,
      createdAt: 1_000,
      expiresAt: null,
      ...over,
    });
    const stored = { lastUsedAt: null, revokedAt: null };

    it("keeps personal and organization tokens apart, newest first", async () => {
      const [ada, grace] = f.users;
      const first = await f.store.add(row({ hash: "p1", name: "one", scopes: "org:read", expiresAt: 5_000 }));
      const second = await f.store.add(row({ hash: "p2", name: "two" }));
      await f.store.add(row({ hash: "g1", userId: grace.id }));
      const org = await f.store.add(row({ hash: "o1", name: "ci", organizationId: f.organizationId, userId: grace.id }));
      expect(await f.store.personal(ada.id)).toEqual([
        { id: second, name: "two", prefix: "tlt_abc", scopes: null, createdAt: 1_000, expiresAt: null, ...stored },
        { id: first, name: "one", prefix: "tlt_abc", scopes: "org:read", createdAt: 1_000, expiresAt: 5_000, ...stored },
      ]);
      expect(await f.store.ofOrganization(f.organizationId)).toEqual([
        { id: org, name: "ci", prefix: "tlt_abc", scopes: null, createdAt: 1_000, expiresAt: null, ...stored, createdBy: grace.email },
      ]);
    });

    it("finds a token by its hash with its user, and records its use", async () => {
      const id = await f.store.add(row({ hash: "found", organizationId: f.organizationId }));
      await f.store.markUsed(id, 2_000);
      expect(await f.store.byHash("found")).toEqual({
        token: {
          id,
          name: "cli",
          prefix: "tlt_abc",
          scopes: null,
          createdAt: 1_000,
          expiresAt: null,
          lastUsedAt: 2_000,
          revokedAt: null,
          organizationId: f.organizationId,
        },
        user: f.users[0],
      });
      expect(await f.store.byHash("unknown")).toBeNull();
    });

    it("revokes a token for its owner only, keeping the first time", async () => {
      const [ada, grace] = f.users;
      const personal = await f.store.add(row({ hash: "r1" }));
      const org = await f.store.add(row({ hash: "r2", organizationId: f.organizationId }));
      expect(await f.store.revoke(personal, { userId: grace.id }, 3_000)).toBe(false);
      expect(await f.store.revoke(org, { userId: ada.id }, 3_000)).toBe(false);
      expect(await f.store.revoke(personal, { organizationId: f.organizationId }, 3_000)).toBe(false);
      expect(await f.store.revoke(personal, { userId: ada.id }, 3_000)).toBe(true);
      expect(await f.store.revoke(personal, { userId: ada.id }, 4_000)).toBe(true);
      expect(await f.store.revoke(org, { organizationId: f.organizationId }, 4_000)).toBe(true);
      expect((await f.store.byHash("r1"))?.token.revokedAt).toBe(3_000);
      expect((await f.store.byHash("r2"))?.token.revokedAt).toBe(4_000);
    });
  });
}
