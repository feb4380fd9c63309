import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { emptyRecords, type DigestRecords } from "../core/digest/records";
import { nodeHttpEvent } from "../../test/support/sdk-events";
import { normalizeEvent } from "../core/normalize/index";
import { MemoryTelemetryStore } from "../../test/support/memory-telemetry";
import { encodePayload } from "../core/storage/payload";
import { openDigestBench, type DigestBench } from "../../test/support/digest";
import { DIALECTS } from "../../test/support/stores";
import { KyselyTelemetryStore } from "./telemetry";
import { eventFacts } from "../core/issues/event-tags";

const HOUR = 3_600_000;

/** A batch with what the store must get right: a repeated event id, session counts to add up, a NUL in text. */
function batch(projectId: number): Omit<DigestRecords, "outcomes"> {
  const normalized = normalizeEvent(nodeHttpEvent(), { receivedAt: new Date() });
  if (!normalized.ok) throw new Error(normalized.reason);
  const event = {
    projectId,
    eventId: normalized.event.event_id,
    receivedAt: Date.now(),
    facts: eventFacts(normalized.event),
    hashes: ["a".repeat(32)],
    secondaryHashes: [],
    config: "test",
    payload: encodePayload(JSON.stringify(normalized.event)),
    issueId: null,
  };
  const issue = { type: "error" as const, title: "SyntaxError", culprit: "", level: "error" as const, metadata: {} };
  const r = emptyRecords();
  r.events.push({ ...event, issue }, { ...event, issue, receivedAt: event.receivedAt + 1 });
  r.logs.push({ projectId, timestamp: Date.now() / 1000, level: "info", body: "bad\u0000byte", traceId: null, attributes: "{}" });
  const session = { projectId, hour: 10 * HOUR, release: "shop@1", environment: "production", status: "exited" };
  r.sessions.push({ ...session, quantity: 2 }, { ...session, quantity: 3 });
  return r;
}

describe("the in-memory TelemetryStore", () => {
  it("stores an event id once per project and adds session counts", async () => {
    const store = new MemoryTelemetryStore();
    await store.write(batch(1));
    expect(store.stored.events).toHaveLength(1);
    expect(store.stored.sessions).toEqual([
      { projectId: 1, hour: 10 * HOUR, release: "shop@1", environment: "production", status: "exited", quantity: 5 },
    ]);
  });
});

describe.each(DIALECTS)("the Kysely TelemetryStore on %s", (dialect) => {
  let bench: DigestBench;
  beforeAll(async () => {
    bench = await openDigestBench(dialect);
  });
  afterAll(() => bench.store.cleanup());

  it("stores an event id once per project, adds session counts, and makes text storable", async () => {
    const db = bench.store.db;
    await db.transaction().execute((trx) => new KyselyTelemetryStore(trx).write(batch(bench.projectId)));
    const events = await db.selectFrom("events").select(["grouping_hash", "issue_id"]).where("project_id", "=", bench.projectId).execute();
    expect(events).toEqual([{ grouping_hash: "a".repeat(32), issue_id: null }]);
    const logs = await db.selectFrom("logs").select("body").where("project_id", "=", bench.projectId).execute();
    expect(logs).toHaveLength(1);
    expect(logs[0]?.body).not.toContain("\u0000");
    const exited = await db
      .selectFrom("session_counts")
      .select("quantity")
      .where("project_id", "=", bench.projectId)
      .where("status", "=", "exited")
      .execute();
    expect(exited.map((r) => Number(r.quantity))).toEqual([5]);
  });
});
