import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { settleQueued } from "../../src/core/digest/batch";
import type { Settled } from "../../src/core/digest/settled";
import { DEFAULT_ENVELOPE_LIMITS } from "../../src/core/envelope/index";
import type { QueuedEnvelope } from "../../src/core/ports/digest-queue";
import { ThreadSettler } from "../../src/server/settle-thread";
import { openDigestBench, type DigestBench } from "../support/digest";
import { DIALECTS } from "../support/stores";

const ROOT = join(import.meta.dirname, "..", "..");
/** Envelopes @sentry/node 11.1.0 sent (test/fixtures/sdk-envelopes/capture.mjs). */
const FIXTURES = join(ROOT, "test", "fixtures", "sdk-envelopes");
const sentAt = (body: Buffer) =>
  Date.parse((JSON.parse(body.subarray(0, body.indexOf(10)).toString("utf8")) as { sent_at: string }).sent_at);

/** Settled records as plain data: bytes as hex, whichever thread made them (a Buffer here, a Uint8Array from there). */
const plain = (settled: Settled[]): unknown =>
  JSON.parse(
    JSON.stringify(settled, function (this: Record<string, unknown>, key: string, value: unknown) {
      const raw = this[key];
      return raw instanceof Uint8Array ? Buffer.from(raw).toString("hex") : value;
    }),
  );

/**
 * The built settle thread (dist/settle-thread.js, decision 0030), as the digest worker starts it,
 * on its own connection to the database: it settles what a real SDK sent exactly as the digest
 * thread does, and the digest thread never had to step in.
 */
describe.each(DIALECTS)("the settle thread on %s", (dialect) => {
  let bench: DigestBench;
  let settler: ThreadSettler;
  const saved: Record<string, string | undefined> = {};

  beforeAll(async () => {
    bench = await openDigestBench(dialect);
    // The thread reads its settings as the server's threads do: from the environment it starts with.
    for (const [name, value] of Object.entries(bench.store.env)) {
      saved[name] = process.env[name];
      process.env[name] = value;
    }
    const local = (): Promise<Settled[]> => Promise.reject(new Error("settled in the calling thread"));
    settler = new ThreadSettler(join(ROOT, "dist", "settle-thread.js"), local, { localShare: 0, balance: false });
  });
  afterAll(async () => {
    await settler?.close();
    for (const [name, value] of Object.entries(saved)) {
      if (value === undefined) delete process.env[name];
      else process.env[name] = value;
    }
    await bench?.store.cleanup();
  });

  it("settles every envelope @sentry/node sent as the digest thread would", async () => {
    const files = readdirSync(FIXTURES).filter((f) => f.endsWith(".envelope"));
    expect(files.length).toBeGreaterThanOrEqual(8);
    const queued: QueuedEnvelope[] = files.map((file, i) => {
      const body = readFileSync(join(FIXTURES, file));
      return { id: i + 1, projectId: bench.projectId, keyId: 0, receivedAt: sentAt(body) + 50, body, deferrals: 0 };
    });
    const there = await settler.settle(queued);
    const here = await settleQueued(bench.ctx, queued, { limits: DEFAULT_ENVELOPE_LIMITS });
    expect(there.map((s) => s.failure)).toEqual(files.map(() => null));
    expect(there.flatMap((s) => s.records.events)).not.toHaveLength(0);
    expect(plain(there)).toEqual(plain(here));
    // Each envelope keeps its own body for a dead letter, though the thread sent none back.
    expect(there.map((s) => Buffer.from(s.letter.body).equals(queued[there.indexOf(s)]!.body))).toEqual(files.map(() => true));
  });
});
