import { randomUUID } from "node:crypto";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { digestBatch } from "../../src/core/digest/batch";
import type { Enricher } from "../../src/core/digest/enrich/enricher";
import type { NormalizedEvent } from "../../src/core/normalize/types";
import { DIGEST_OPTIONS, openDigestBench, type DigestBench } from "../support/digest";
import { errorEnvelope, newEventId } from "../support/envelopes";
import { DIALECTS } from "../support/stores";
import { waitFor } from "../support/wait";
import { decodePayload } from "../../src/core/storage/payload";

/** An error @sentry/node 11 sent (test/fixtures/sdk-envelopes), with a fresh event id each time. */
function nodeError(): Buffer {
  const text = readFileSync(join(import.meta.dirname, "..", "fixtures", "sdk-envelopes", "node-error-1.envelope"), "utf8");
  const id = randomUUID().replaceAll("-", "");
  return Buffer.from(text.replace(/"event_id":"[0-9a-f]{32}"/g, `"event_id":"${id}"`));
}

const renaming: Enricher = {
  name: "renaming",
  enrich: async (event) => {
    for (const value of event.exception?.values ?? []) {
      for (const [i, frame] of (value.stacktrace?.frames ?? []).entries()) {
        frame.function = `original_${i}`;
        frame.context_line = `original source line ${i}`;
      }
    }
    return event;
  },
};
const hanging: Enricher = { name: "hanging", enrich: () => new Promise<NormalizedEvent | null>(() => {}) };

describe.each(DIALECTS)("enrichment in the digest on %s", (dialect) => {
  let bench: DigestBench;
  beforeAll(async () => {
    bench = await openDigestBench(dialect);
  });
  afterAll(() => bench.store.cleanup());

  async function digestOne(enrichers: readonly Enricher[]) {
    const body = nodeError();
    await bench.enqueue(body);
    for (;;)
      if ((await digestBatch(bench.ctx, { ...DIGEST_OPTIONS, enrichers, enrichmentBudget: { perEventMs: 50, perBatchMs: 5000 } })) === 0)
        break;
    const id = /"event_id":"([0-9a-f]{32})"/.exec(body.toString("utf8"))?.[1] ?? "";
    const row = await bench.store.db
      .selectFrom("events")
      .select(["grouping_hash", "issue_id", "data"])
      .where("event_id", "=", id)
      .executeTakeFirstOrThrow();
    return { ...row, event: JSON.parse(decodePayload(row.data)) as NormalizedEvent };
  }

  it("groups and stores the event as the enricher left it, in an issue of its own", async () => {
    const plain = await digestOne([]);
    const again = await digestOne([]);
    const enriched = await digestOne([renaming]);
    expect(again.issue_id).toBe(plain.issue_id);
    expect(enriched.grouping_hash).not.toBe(plain.grouping_hash);
    expect(enriched.issue_id).not.toBe(plain.issue_id);
    expect(enriched.event.exception?.values[0]?.stacktrace?.frames[0]?.function).toBe("original_0");
  });

  it("stores an event whose enricher never answers, as it came, in its usual issue, saying why", async () => {
    const plain = await digestOne([]);
    const late = await digestOne([hanging]);
    expect(late.issue_id).toBe(plain.issue_id);
    expect(late.event.errors).toEqual([expect.objectContaining({ type: "enrichment_timeout", name: "hanging" })]);
  });
});

/**
 * Issue 13: an event whose enrichment is still running (a large source map decoding in its
 * thread) is deferred — kept in `digest_deferred` in the batch's own transaction — so the rest
 * of the batch is stored now; it is digested again a second later, once, and counted once.
 */
describe.each(DIALECTS)("deferred enrichment on %s", (dialect) => {
  let bench: DigestBench;
  beforeAll(async () => {
    bench = await openDigestBench(dialect);
  });
  afterAll(() => bench.store.cleanup());

  it("stores the rest of the batch at once and the waiting event later, enriched, counted once", async () => {
    let decoded = false;
    const decoding: Enricher = {
      name: "decoding",
      enrich: async (event) => {
        if (!JSON.stringify(event).includes("big map")) return null;
        if (!decoded) await new Promise((r) => setTimeout(r, 400)).then(() => (decoded = true));
        // What the decoded map tells, as far as this test is concerned.
        event.level = "fatal";
        return event;
      },
    };
    const options = {
      ...DIGEST_OPTIONS,
      enrichers: [decoding],
      enrichmentBudget: { perEventMs: 2000, perBatchMs: 5000, deferAfterMs: 50 },
    };
    const waiting = newEventId();
    const other = newEventId();
    await bench.enqueue(errorEnvelope(waiting, "thrown where the big map maps"), errorEnvelope(other, "an ordinary error"));
    const stored = async (id: string) =>
      (await bench.store.db.selectFrom("events").select("data").where("event_id", "=", id).executeTakeFirst())?.data;
    const deferred = () => bench.store.db.selectFrom("digest_deferred").select(["project_id", "deferrals"]).execute();

    expect(await digestBatch(bench.ctx, options)).toBe(2);
    expect(await stored(other)).toBeDefined();
    expect(await stored(waiting)).toBeUndefined();
    expect(await deferred()).toEqual([{ project_id: bench.projectId, deferrals: 1 }]);
    // Not before its second has passed.
    expect(await digestBatch(bench.ctx, options)).toBe(0);

    // Then digested by a later batch (an early batch digests nothing and changes nothing).
    await waitFor(async () => (await digestBatch(bench.ctx, options)) === 1, 15_000, "a batch to digest the deferred event");
    const data = await stored(waiting);
    expect(data).toBeDefined();
    const event = JSON.parse(decodePayload(data!)) as NormalizedEvent;
    expect(event.level).toBe("fatal");
    expect(await deferred()).toEqual([]);
    const accepted = await bench.store.db
      .selectFrom("outcomes")
      .select((eb) => eb.fn.sum<number>("quantity").as("n"))
      .where("project_id", "=", bench.projectId)
      .where("category", "=", "error")
      .where("outcome", "=", "accepted")
      .executeTakeFirstOrThrow();
    expect(Number(accepted.n)).toBe(2);
  });
});
