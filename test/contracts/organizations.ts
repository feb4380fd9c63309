import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { OrganizationStore } from "../../src/core/ports/organizations";

export interface OrganizationStoreFixture {
  store: OrganizationStore;
  /** The email of an existing user, to own an organization. */
  ownerEmail: string;
  cleanup(): Promise<void>;
}

/** What every OrganizationStore (src/core/ports/organizations.ts) does. */
export function organizationStoreContract(name: string, make: () => Promise<OrganizationStoreFixture>): void {
  describe(name, () => {
    let f: OrganizationStoreFixture;
    beforeAll(async () => {
      f = await make();
    });
    afterAll(() => f.cleanup());

    it("creates organizations, finds them by slug and lists the self-monitoring one last", async () => {
      const made = await f.store.create({ slug: "zeta", name: "Zeta" }, f.ownerEmail, 1_000);
      expect(made).toEqual({
        org: { id: expect.any(Number), slug: "zeta", name: "Zeta", is_internal: 0, created_at: 1_000, open_membership: 1, require_2fa: 0 },
      });
      await f.store.create({ slug: "alpha", name: "" }, null, 2_000);
      expect(await f.store.bySlug("alpha")).toMatchObject({ slug: "alpha", name: "alpha" });
      expect(await f.store.bySlug("missing")).toBeNull();
      const all = await f.store.all();
      const internal = all.filter((o) => o.is_internal === 1);
      expect(all.map((o) => o.slug)).toEqual(["alpha", "zeta", ...internal.map((o) => o.slug)]);
    });

    it("refuses an unknown owner before a taken slug, and changes nothing", async () => {
      expect(await f.store.create({ slug: "zeta", name: "Again" }, "ghost@example.com", 0)).toEqual({ refused: "unknown-owner" });
      expect(await f.store.create({ slug: "zeta", name: "Again" }, null, 0)).toEqual({ refused: "slug-taken" });
      expect(await f.store.create({ slug: "ghosted", name: "G" }, "ghost@example.com", 0)).toEqual({ refused: "unknown-owner" });
      expect(await f.store.bySlug("ghosted")).toBeNull();
      expect(await f.store.bySlug("zeta")).toMatchObject({ name: "Zeta" });
    });

    it("renames an organization, keeping a slug another one has", async () => {
      const beta = await f.store.create({ slug: "beta", name: "Beta" }, null, 0);
      const id = "org" in beta ? beta.org.id : 0;
      expect(await f.store.update(id, { slug: "zeta" })).toBeNull();
      expect(await f.store.update(id, { slug: "beta", name: "Beta Inc." })).toMatchObject({ id, slug: "beta", name: "Beta Inc." });
      expect(await f.store.update(id, { slug: "gamma" })).toMatchObject({ id, slug: "gamma", name: "Beta Inc." });
      expect(await f.store.bySlug("beta")).toBeNull();
    });
  });
}
