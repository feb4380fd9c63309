import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { AuditLog, NewAuditEntry } from "../../src/core/ports/audit";
import type { OrgWorld } from "../support/org-world";

export interface AuditLogFixture {
  store: AuditLog;
  /** `memberId` belongs to `orgId` only; `outsiderId` to no organization. */
  world: OrgWorld;
  cleanup(): Promise<void>;
}

/** What every AuditLog (src/core/ports/audit.ts) does. */
export function auditLogContract(name: string, make: () => Promise<AuditLogFixture>): void {
  describe(name, () => {
    let f: AuditLogFixture;
    beforeAll(async () => {
      f = await make();
    });
    afterAll(() => f.cleanup());

    const entry = (over: Partial<NewAuditEntry>): NewAuditEntry => ({
      organizationId: f.world.orgId,
      event: "org.edit",
      actorUserId: f.world.memberId,
      actorLabel: "member@example.com",
      actorTokenId: null,
      ipAddress: "10.0.0.1",
      targetType: "organization",
      targetId: String(f.world.orgId),
      targetLabel: "acme",
      data: { before: { name: "Acme" }, after: { name: "Acme Inc", open: true, seats: 3, note: null } },
      createdAt: 1_000,
      ...over,
    });

    it("lists an organization's entries newest first, filtered and paged", async () => {
      const { orgId, otherOrgId, memberId, outsiderId } = f.world;
      await f.store.append(entry({}));
      await f.store.append(entry({ event: "team.create", createdAt: 2_000, data: {} }));
      await f.store.append(entry({ event: "team.create", actorUserId: outsiderId, actorLabel: "zed", createdAt: 3_000 }));
      await f.store.append(entry({ event: "user.login-failed", actorUserId: null, actorLabel: "someone", createdAt: 4_000 }));
      await f.store.append(entry({ organizationId: otherOrgId, createdAt: 5_000 }));

      const all = await f.store.list(orgId, { limit: 10 });
      expect(all.map((e) => e.createdAt)).toEqual([4_000, 3_000, 2_000, 1_000]);
      const { id, ...first } = all[3] ?? { id: 0 };
      expect(id).toEqual(expect.any(Number));
      expect(first).toEqual({ ...entry({}), event: "org.edit" });
      const times = async (q: Omit<Parameters<AuditLog["list"]>[1], "limit">) =>
        (await f.store.list(orgId, { limit: 10, ...q })).map((e) => e.createdAt);
      expect(await times({ event: "team.create" })).toEqual([3_000, 2_000]);
      expect(await times({ actorUserId: memberId })).toEqual([2_000, 1_000]);
      expect(await times({ from: 2_000, to: 4_000 })).toEqual([3_000, 2_000]);
      expect(await times({ beforeId: all[1]?.id })).toEqual([2_000, 1_000]);
      expect((await f.store.list(orgId, { limit: 2 })).map((e) => e.createdAt)).toEqual([4_000, 3_000]);

      expect(await f.store.actors(orgId)).toEqual([
        { userId: memberId, label: "member@example.com" },
        { userId: outsiderId, label: "zed" },
      ]);
    });

    it("appends one entry per membership of the user", async () => {
      const { orgId, otherOrgId, memberId, outsiderId } = f.world;
      await f.store.appendPerMembership(memberId, { ...entry({}), event: "user.login", createdAt: 6_000 });
      await f.store.appendPerMembership(outsiderId, { ...entry({}), event: "user.login", createdAt: 6_000 });
      expect(await f.store.list(orgId, { event: "user.login", limit: 10 })).toMatchObject([{ actorUserId: memberId, createdAt: 6_000 }]);
      expect(await f.store.list(otherOrgId, { event: "user.login", limit: 10 })).toEqual([]);
    });

    it("prunes entries older than the cut-off, a batch at a time", async () => {
      const { orgId, otherOrgId } = f.world;
      expect(await f.store.prune(3_500, 2)).toBe(2);
      expect(await f.store.prune(3_500, 2)).toBe(1);
      expect(await f.store.prune(3_500, 2)).toBe(0);
      expect((await f.store.list(orgId, { limit: 10 })).map((e) => e.createdAt)).toEqual([6_000, 4_000]);
      expect((await f.store.list(otherOrgId, { limit: 10 })).map((e) => e.createdAt)).toEqual([5_000]);
    });
  });
}
