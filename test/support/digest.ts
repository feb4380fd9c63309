import type { Ctx } from "../../src/core/context";
import { createUser } from "../../src/core/accounts/create-user";
import { digestBatch, type DigestOptions } from "../../src/core/digest/batch";
import { DEFAULT_ENVELOPE_LIMITS } from "../../src/core/envelope/index";
import { createOrganization } from "../../src/core/orgs/create-org";
import { createProject } from "../../src/core/projects/create-project";
import type { Dialect } from "../../src/db/connect";
import { errorEnvelope, newEventId } from "./envelopes";
import { openTestStore, testCtx, type TestStore } from "./stores";

export const DIGEST_OPTIONS: DigestOptions = { batchSize: 25, limits: DEFAULT_ENVELOPE_LIMITS };

/** A migrated store with one organization and project, and the steps a digest test needs. */
export interface DigestBench {
  store: TestStore;
  ctx: Ctx;
  projectId: number;
  /** Queues envelope bodies as accept would, oldest first. */
  enqueue(...bodies: Buffer[]): Promise<void>;
  /** Runs the digest until the queue is empty; fails the test past `maxBatches` (a digest that loops). */
  drain(maxBatches?: number): Promise<number>;
  /** Sends one ordinary error event through the digest and says whether it was stored. */
  legitimateEventStored(): Promise<boolean>;
}

let benches = 0;

/** Queues one envelope body for a project as accept would (the store's queue: its own file on SQLite). */
export async function queueEnvelope(store: TestStore, projectId: number, body: Buffer): Promise<void> {
  await store.queue
    .insertInto("ingest_queue")
    .values({ project_id: projectId, key_id: 0, endpoint: "envelope", received_at: Date.now(), body })
    .execute();
}

export async function openDigestBench(dialect: Dialect): Promise<DigestBench> {
  // As the digest worker connects (src/server/digest-worker.ts).
  const store = await openTestStore(dialect, { digest: true });
  const ctx = testCtx(store);
  const n = ++benches;
  await createUser({ ctx, input: { email: `digest${n}@example.com`, password: "password-123" } });
  await createOrganization({ ctx, input: { slug: `dg${n}`, owner: `digest${n}@example.com` } });
  const projectId = (await createProject({ ctx, input: { org: `dg${n}`, slug: "p" } })).project.id;
  const enqueue = async (...bodies: Buffer[]) => {
    for (const body of bodies) await queueEnvelope(store, projectId, body);
  };
  const drain = async (maxBatches = 1000) => {
    let taken = 0;
    for (let i = 0; i < maxBatches; i++) {
      const n = await digestBatch(ctx, DIGEST_OPTIONS);
      if (n === 0) return taken;
      taken += n;
    }
    throw new Error(`the digest was still taking batches after ${maxBatches}`);
  };
  const legitimateEventStored = async () => {
    const id = newEventId();
    await enqueue(errorEnvelope(id, "a legitimate event after hostile input"));
    await drain();
    return (await store.db.selectFrom("events").select("id").where("event_id", "=", id).executeTakeFirst()) !== undefined;
  };
  return { store, ctx, projectId, enqueue, drain, legitimateEventStored };
}
