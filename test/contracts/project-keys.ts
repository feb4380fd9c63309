import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { generateKeyPair } from "../../src/core/keys/generate";
import type { NewKeyRecord, ProjectKeyStore } from "../../src/core/ports/project-keys";

export interface ProjectKeyStoreSubject {
  store: ProjectKeyStore;
  /** A new project without keys; returns its id. */
  project(): Promise<number>;
  cleanup(): Promise<void>;
}

const NOW = 1_700_000_000_000;
const newKey = (label: string, extra: Partial<NewKeyRecord> = {}): NewKeyRecord => ({
  label,
  ...generateKeyPair(),
  rateLimit: null,
  now: NOW,
  ...extra,
});

export function projectKeyStoreContract(name: string, make: () => Promise<ProjectKeyStoreSubject>): void {
  describe(`ProjectKeyStore: ${name}`, () => {
    let s: ProjectKeyStoreSubject;
    let store: ProjectKeyStore;
    beforeAll(async () => {
      s = await make();
      store = s.store;
    });
    afterAll(() => s.cleanup());

    it("issues active keys, lists a project's in creation order and finds one by its public key", async () => {
      const project = await s.project();
      const other = await s.project();
      const first = await store.create(project, newKey("first", { rateLimit: { count: 5, windowSeconds: 60 } }));
      await store.create(other, newKey("elsewhere"));
      const second = await store.create(project, newKey("second"));
      expect(first).toMatchObject({
        project_id: project,
        label: "first",
        is_active: 1,
        rate_limit_count: 5,
        rate_limit_window_seconds: 60,
        created_at: NOW,
      });
      expect((await store.list(project)).map((k) => k.id)).toEqual([first.id, second.id]);
      expect(await store.byPublicKey(second.public_key)).toEqual(second);
      expect(await store.byPublicKey("0".repeat(32))).toBeNull();
    });

    it("disables and re-enables a key, and no other project's", async () => {
      const project = await s.project();
      const other = await s.project();
      const key = await store.create(project, newKey("k"));
      expect(await store.setActive(project, key.id, false)).toBe(true);
      expect((await store.byPublicKey(key.public_key))?.is_active).toBe(0);
      expect(await store.setActive(project, key.id, true)).toBe(true);
      expect(await store.setActive(other, key.id, false)).toBe(false);
      expect((await store.byPublicKey(key.public_key))?.is_active).toBe(1);
    });

    it("sets and clears a key's rate limit, and no other project's", async () => {
      const project = await s.project();
      const other = await s.project();
      const key = await store.create(project, newKey("k"));
      expect(await store.setRateLimit(project, key.id, { count: 100, windowSeconds: 60 })).toBe(true);
      expect(await store.byPublicKey(key.public_key)).toMatchObject({ rate_limit_count: 100, rate_limit_window_seconds: 60 });
      expect(await store.setRateLimit(other, key.id, null)).toBe(false);
      expect(await store.setRateLimit(project, key.id, null)).toBe(true);
      expect(await store.byPublicKey(key.public_key)).toMatchObject({ rate_limit_count: null, rate_limit_window_seconds: null });
    });

    it("rotates a key: the old one is disabled, a new active one takes its label, limit and the new pair", async () => {
      const project = await s.project();
      const other = await s.project();
      const old = await store.create(project, newKey("Backend", { rateLimit: { count: 100, windowSeconds: 60 } }));
      const pair = generateKeyPair();
      expect(await store.rotate(other, old.id, pair, NOW + 1)).toBeNull();
      expect((await store.list(project)).map((k) => k.is_active)).toEqual([1]);
      const fresh = await store.rotate(project, old.id, pair, NOW + 1);
      expect(fresh).toMatchObject({
        project_id: project,
        label: "Backend",
        public_key: pair.publicKey,
        secret_key: pair.secretKey,
        is_active: 1,
        rate_limit_count: 100,
        rate_limit_window_seconds: 60,
        created_at: NOW + 1,
      });
      expect(await store.list(project)).toEqual([{ ...old, is_active: 0 }, fresh]);
    });
  });
}
