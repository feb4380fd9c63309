import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { DeadLetterStore, NewDeadLetter } from "../../src/core/ports/dead-letters";

/** What the suite needs beside the store: two organizations' ids and views of the queue and the outcome counts. */
export interface DeadLetterFixture {
  store: DeadLetterStore;
  organizationId: number;
  projectId: number;
  otherOrganizationId: number;
  /** The envelopes the ingest queue holds, oldest first. */
  queued(): Promise<{ projectId: number; keyId: number; receivedAt: number; endpoint: string; body: Uint8Array }[]>;
  /** The quantity counted under `reason` so far. */
  counted(reason: string): Promise<number>;
  cleanup(): Promise<void>;
}

export function deadLetterStoreContract(name: string, make: () => Promise<DeadLetterFixture>): void {
  describe(`DeadLetterStore: ${name}`, () => {
    let f: DeadLetterFixture;
    beforeAll(async () => {
      f = await make();
    });
    afterAll(() => f.cleanup());

    const letter = (at: number, body: string, reason = "digest_failed: boom"): NewDeadLetter => ({
      projectId: f.projectId,
      keyId: 7,
      receivedAt: at - 1000,
      createdAt: at,
      itemTypes: "event,attachment",
      size: body.length,
      reason,
      excerpt: `excerpt of ${body}`,
      body: Buffer.from(body),
    });
    const idOf = async (reason: string) => (await f.store.list(f.organizationId, 500)).find((l) => l.reason === reason)?.id ?? -1;

    it("records a letter with its outcomes and lists it to its organization only, newest first", async () => {
      const outcome = { projectId: f.projectId, category: "error", outcome: "invalid" as const, reason: "contract", quantity: 1, at: 5000 };
      await f.store.record(letter(5000, "older"), [outcome, { ...outcome, category: "attachment" }]);
      await f.store.record({ ...letter(6000, ""), itemTypes: "" }, []);
      expect(await f.counted("contract")).toBe(2);
      const [newest, older] = await f.store.list(f.organizationId, 10);
      expect(newest).toMatchObject({ itemTypes: [], createdAt: 6000, retryable: false });
      expect(older).toEqual({
        id: expect.any(Number) as number,
        projectSlug: "p",
        itemTypes: ["event", "attachment"],
        size: 5,
        reason: "digest_failed: boom",
        excerpt: "excerpt of older",
        receivedAt: 4000,
        createdAt: 5000,
        retryable: true,
      });
      expect(await f.store.list(f.organizationId, 1)).toEqual([newest]);
      expect(await f.store.list(f.otherOrganizationId, 10)).toEqual([]);
    });

    it("finds a letter with its body in its organization only", async () => {
      await f.store.record(letter(7000, "find me", "find"), []);
      const id = await idOf("find");
      const found = await f.store.find(f.organizationId, id);
      expect(found && { ...found, body: Buffer.from(found.body).toString() }).toEqual({
        id,
        projectId: f.projectId,
        keyId: 7,
        receivedAt: 6000,
        body: "find me",
      });
      expect(await f.store.find(f.otherOrganizationId, id)).toBeNull();
      expect(await f.store.find(f.organizationId, id + 1000)).toBeNull();
    });

    it("requeues a letter's envelope as received and forgets the letter", async () => {
      await f.store.record(letter(8000, "retry me", "requeue"), []);
      const held = await f.store.find(f.organizationId, await idOf("requeue"));
      if (!held) throw new Error("the letter was not recorded");
      const before = (await f.queued()).length;
      await f.store.requeue(held);
      const queued = await f.queued();
      expect(queued).toHaveLength(before + 1);
      const last = queued[queued.length - 1];
      expect(last && { ...last, body: Buffer.from(last.body).toString() }).toEqual({
        projectId: f.projectId,
        keyId: 7,
        receivedAt: 7000,
        endpoint: "envelope",
        body: "retry me",
      });
      expect(await f.store.find(f.organizationId, held.id)).toBeNull();
    });

    it("deletes a letter", async () => {
      await f.store.record(letter(9000, "delete me", "delete"), []);
      const id = await idOf("delete");
      await f.store.delete(id);
      expect(await f.store.find(f.organizationId, id)).toBeNull();
      expect(await idOf("delete")).toBe(-1);
    });
  });
}
