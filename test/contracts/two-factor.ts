import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { TwoFactorStore } from "../../src/core/ports/two-factor";
import type { OrgWorld } from "../support/org-world";

export interface TwoFactorStoreFixture {
  store: TwoFactorStore;
  world: OrgWorld;
  /** Whether the organization requires two-factor sign-in, as stored. */
  orgRequires(orgId: number): Promise<boolean>;
  cleanup(): Promise<void>;
}

/** What every TwoFactorStore (src/core/ports/two-factor.ts) does. */
export function twoFactorStoreContract(name: string, make: () => Promise<TwoFactorStoreFixture>): void {
  describe(name, () => {
    let f: TwoFactorStoreFixture;
    beforeAll(async () => {
      f = await make();
    });
    afterAll(() => f.cleanup());

    it("turns two-factor on once, with its recovery codes, and off again", async () => {
      const user = f.world.memberId;
      expect(await f.store.totp(user)).toBeNull();
      expect(await f.store.enable(user, "plain:one", 10, ["a", "b"], 1_000)).toBe(true);
      expect(await f.store.enable(user, "plain:two", 11, ["c"], 2_000)).toBe(false);
      expect(await f.store.totp(user)).toEqual({ secret: "plain:one", lastStep: 10, createdAt: 1_000 });
      expect(await f.store.recoveryCodesLeft(user)).toBe(2);
      await f.store.replaceRecoveryCodes(user, ["x", "y", "z"], 3_000);
      expect(await f.store.recoveryCodesLeft(user)).toBe(3);
      expect(await f.store.useRecoveryCode(user, "a", 3_000)).toBe(false);
      await f.store.disable(user);
      expect(await f.store.totp(user)).toBeNull();
      expect(await f.store.recoveryCodesLeft(user)).toBe(0);
      expect(await f.store.enable(user, "plain:three", 12, ["d"], 4_000)).toBe(true);
    });

    it("accepts each step once and only forwards, and each recovery code once", async () => {
      const user = f.world.outsiderId;
      await f.store.enable(user, "plain:s", 10, ["r1", "r2"], 1_000);
      expect(await f.store.useStep(user, 10)).toBe(false);
      expect(await f.store.useStep(user, 12)).toBe(true);
      expect(await f.store.useStep(user, 11)).toBe(false);
      expect(await f.store.useStep(user, 12)).toBe(false);
      expect((await f.store.totp(user))?.lastStep).toBe(12);
      expect(await f.store.useStep(f.world.memberId + f.world.outsiderId + 1, 99)).toBe(false);

      expect(await f.store.recoveryCodeUsed(user, "r1")).toBe(false);
      expect(await f.store.useRecoveryCode(user, "r1", 2_000)).toBe(true);
      expect(await f.store.useRecoveryCode(user, "r1", 3_000)).toBe(false);
      expect(await f.store.useRecoveryCode(f.world.memberId, "r2", 3_000)).toBe(false);
      expect(await f.store.recoveryCodeUsed(user, "r1")).toBe(true);
      expect(await f.store.recoveryCodeUsed(user, "unknown")).toBe(false);
      expect(await f.store.recoveryCodesLeft(user)).toBe(1);
    });

    it("keeps a pending sign-in until it expires or is taken", async () => {
      const userId = f.world.memberId;
      const challenge = (id: string, expiresAt: number) => ({ id, userId, createdAt: 0, expiresAt, ip: "10.0.0.1", userAgent: "test" });
      await f.store.addChallenge(challenge("c1", 1_000));
      await f.store.addChallenge(challenge("c2", 2_000));
      expect(await f.store.challenge("c1", 999)).toEqual({ userId, expiresAt: 1_000 });
      expect(await f.store.challenge("c1", 1_000)).toBeNull();
      expect(await f.store.takeChallenge("c2")).toBe(true);
      expect(await f.store.takeChallenge("c2")).toBe(false);
      await f.store.addChallenge(challenge("c3", 3_000));
      await f.store.forgetExpiredChallenges(2_000);
      expect(await f.store.takeChallenge("c1")).toBe(false);
      expect(await f.store.challenge("c3", 2_000)).toEqual({ userId, expiresAt: 3_000 });
    });

    it("sets whether an organization requires two-factor sign-in", async () => {
      await f.store.setOrgRequirement(f.world.orgId, true);
      expect([await f.orgRequires(f.world.orgId), await f.orgRequires(f.world.otherOrgId)]).toEqual([true, false]);
      await f.store.setOrgRequirement(f.world.orgId, false);
      expect(await f.orgRequires(f.world.orgId)).toBe(false);
    });
  });
}
