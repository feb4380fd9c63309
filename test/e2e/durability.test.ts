import { once } from "node:events";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createOrganization } from "../../src/core/orgs/create-org";
import { createProject } from "../../src/core/projects/create-project";
import { errorEnvelope, newEventId } from "../support/envelopes";
import { queueDrained } from "../support/ingest-db";
import { startServer, type TestServer } from "../support/server";
import { DIALECTS, openTestStore, testCtx, type TestStore } from "../support/stores";

const TOTAL = 600;
const CONCURRENCY = 32;
const KILL_AFTER_ACKS = 300;

/**
 * "Nothing already accepted is lost" (PRODUCT.md): a 200 is an acknowledgement. Envelopes
 * stream in concurrently, the server is killed with SIGKILL mid-stream (no shutdown hook
 * runs), and a new server on the same database must digest every acknowledged one.
 */
describe.each(DIALECTS)("durability of acknowledged envelopes on %s", (dialect) => {
  let store: TestStore;
  let first: TestServer | undefined;
  let second: TestServer | undefined;

  beforeAll(async () => {
    store = await openTestStore(dialect);
  });

  afterAll(async () => {
    if (first?.process.exitCode === null && first.process.signalCode === null) first.process.kill("SIGKILL");
    await second?.stop();
    await store?.cleanup();
  });

  it("keeps every event acknowledged before a SIGKILL and digests it after a restart", async () => {
    const ctx = testCtx(store);
    await createOrganization({ ctx, input: { slug: "durable" } });
    const { project, key } = await createProject({ ctx, input: { org: "durable", slug: "kill" } });
    const env = { ...store.env, TELLTALE_SELF_DSN: "off" };
    const server = (first = await startServer(env));
    const url = `${server.url.replace("localhost", "127.0.0.1")}/api/${project.id}/envelope/?sentry_version=7&sentry_key=${key.public_key}`;

    const messages = new Map<string, string>();
    const acked = new Set<string>();
    /** Answers other than 200 while the server was alive: there should be none. */
    const refusals: string[] = [];
    let killedAt: number | null = null;
    let pending = 0;
    let pendingAtKill = 0;
    let next = 0;

    const exited = once(server.process, "exit");
    async function worker(): Promise<void> {
      while (next < TOTAL && killedAt === null) {
        const i = next++;
        const id = newEventId();
        const message = `durability ${dialect} #${i} ${id}`;
        messages.set(id, message);
        let status: number;
        pending++;
        try {
          const response = await fetch(url, {
            method: "POST",
            body: new Uint8Array(errorEnvelope(id, message)),
            headers: { "content-type": "application/x-sentry-envelope" },
          });
          status = response.status;
          await response.arrayBuffer().catch(() => undefined);
        } catch {
          continue; // cut off by the kill: not acknowledged, may or may not be stored
        } finally {
          pending--;
        }
        if (status === 200) acked.add(id);
        else if (killedAt === null) refusals.push(`${status} for #${i}`);
        if (acked.size >= KILL_AFTER_ACKS && killedAt === null) {
          killedAt = acked.size;
          pendingAtKill = pending;
          server.process.kill("SIGKILL");
        }
      }
    }
    await Promise.all(Array.from({ length: CONCURRENCY }, worker));
    await exited;

    expect(refusals).toEqual([]);
    expect(killedAt, "the server was killed mid-stream").not.toBeNull();
    expect(server.process.signalCode).toBe("SIGKILL");
    expect(acked.size).toBeGreaterThanOrEqual(KILL_AFTER_ACKS);
    expect(messages.size).toBeLessThan(TOTAL); // the stream was cut off, not finished
    expect(pendingAtKill, "requests were in flight at the kill").toBeGreaterThan(0);

    second = await startServer(env);
    await queueDrained(store, 30_000);

    const rows = await store.db.selectFrom("events").select(["event_id", "title"]).where("project_id", "=", project.id).execute();
    const stored = new Map(rows.map((r) => [r.event_id, r.title]));
    const lost = [...acked].filter((id) => !stored.has(id));
    expect(lost, `${lost.length} of ${acked.size} acknowledged events are missing`).toEqual([]);
    for (const id of acked) expect(stored.get(id)).toBe(messages.get(id));
    // Nothing stored that was never sent, and each event once.
    expect([...stored.keys()].filter((id) => !messages.has(id))).toEqual([]);
    expect(rows).toHaveLength(stored.size);
  });
});
