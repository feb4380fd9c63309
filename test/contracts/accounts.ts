import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { AccountStore, NewAccountRow } from "../../src/core/ports/accounts";

export interface AccountStoreFixture {
  store: AccountStore;
  cleanup(): Promise<void>;
}

const account = (email: string, superuser = false): NewAccountRow => ({ email, name: email, passwordHash: `hash of ${email}`, superuser });

/**
 * What every AccountStore (src/core/ports/accounts.ts) does, on a store without users. The cases
 * share one store and run in order: the first run's setup needs it empty.
 */
export function accountStoreContract(name: string, make: () => Promise<AccountStoreFixture>): void {
  describe(name, () => {
    let store: AccountStore;
    let cleanup: () => Promise<void>;
    beforeAll(async () => ({ store, cleanup } = await make()));
    afterAll(() => cleanup());

    it("adds the first admin and their organization once, then refuses: Telltale is set up", async () => {
      expect(await store.countUsers()).toBe(0);
      const first = await store.addFirstAdmin(account("admin@example.com", true), { slug: "acme", name: "Acme" }, 1_000);
      const admin = { id: expect.any(Number), email: "admin@example.com", name: "admin@example.com", is_superuser: 1, created_at: 1_000 };
      expect(first).toEqual({ user: admin });
      expect(await store.addFirstAdmin(account("late@example.com"), { slug: "late", name: "Late" }, 2_000)).toEqual({ refused: "set-up" });
      expect(await store.countUsers()).toBe(1);
      // The admin owns the organization: its last owner is not deleted.
      const adminId = "user" in first ? first.user.id : 0;
      expect(await store.deleteUserUnlessLastOwner(adminId)).toEqual({ lastOwnerOf: ["acme"] });
    });

    it("adds users without their hash in what it answers; a taken email adds nothing", async () => {
      const user = await store.addUser(account("ada@example.com", true), 5);
      expect(user).toEqual({ id: expect.any(Number), email: "ada@example.com", name: "ada@example.com", is_superuser: 1, created_at: 5 });
      expect(await store.addUser(account("ada@example.com"), 6)).toBeNull();
      expect(await store.credentials("ada@example.com")).toEqual({ user, passwordHash: "hash of ada@example.com" });
      expect(await store.credentials("nobody@example.com")).toBeNull();
      expect(await store.userById(user?.id ?? 0)).toEqual({ ...user, password_hash: "hash of ada@example.com" });
      expect(await store.userByEmail("ADA@example.com")).toBeNull();
    });

    it("opens sessions, answers their user until they expire, and ends them", async () => {
      const user = await store.addUser(account("grace@example.com"), 0);
      const userId = user?.id ?? 0;
      const session = (id: string, createdAt: number) => ({
        id,
        userId,
        createdAt,
        expiresAt: createdAt + 100,
        ip: "192.0.2.1",
        userAgent: "curl",
      });
      await store.addSession(session("s1", 1_000));
      await store.addSession(session("s2", 1_010));
      expect(await store.sessionUser("s1", 1_050)).toEqual({ user, lastSeenAt: 1_000 });
      expect(await store.sessionUser("s1", 1_100)).toBeNull();
      expect(await store.sessionUser("unknown", 1_050)).toBeNull();

      // A use is recorded unless one after `since` already was.
      await store.touchSession("s1", 1_040, 1_020);
      await store.touchSession("s1", 1_045, 1_020);
      expect(await store.sessionUser("s1", 1_050)).toMatchObject({ lastSeenAt: 1_040 });
      await store.touchSession("s1", 1_060, 1_040);
      expect((await store.liveSessions(userId, 1_050)).map((s) => [s.id, s.last_seen_at]).sort()).toEqual([
        ["s1", 1_060],
        ["s2", null],
      ]);

      await store.endSession("s1");
      expect(await store.sessionUser("s1", 1_050)).toBeNull();
      expect(await store.deleteSession(userId + 1, "s2")).toBe(false);
      expect(await store.deleteSession(userId, "s2")).toBe(true);
      await store.addSession(session("s3", 1_000));
      await store.addSession(session("s4", 1_000));
      await store.deleteSessions(userId, "s4");
      expect((await store.liveSessions(userId, 1_050)).map((s) => s.id)).toEqual(["s4"]);
    });

    it("counts sign-in attempts per key and window, and gives back a refunded one", async () => {
      expect(await store.countAttempt("ip:a", 1_000, 500)).toEqual({ attempts: 1, windowStart: 1_000 });
      expect(await store.countAttempt("ip:a", 1_200, 500)).toEqual({ attempts: 2, windowStart: 1_000 });
      await store.refundAttempt("ip:a", 1_000);
      expect(await store.countAttempt("ip:a", 1_300, 500)).toEqual({ attempts: 2, windowStart: 1_000 });
      // A new window starts over; a refund for the old one no longer counts.
      expect(await store.countAttempt("ip:a", 1_600, 500)).toEqual({ attempts: 1, windowStart: 1_600 });
      await store.refundAttempt("ip:a", 1_000);
      expect(await store.countAttempt("ip:a", 1_700, 500)).toEqual({ attempts: 2, windowStart: 1_600 });
      await store.forgetExpiredAttempts(3_000, 500);
      expect(await store.countAttempt("ip:a", 3_000, 500)).toEqual({ attempts: 1, windowStart: 3_000 });
    });
  });
}
