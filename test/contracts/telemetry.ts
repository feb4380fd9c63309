import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { emptyRecords, type DigestRecords } from "../../src/core/digest/records";
import { eventFacts } from "../../src/core/issues/event-tags";
import { normalizeEvent } from "../../src/core/normalize/index";
import { encodePayload } from "../../src/core/storage/payload";
import { nodeHttpEvent } from "../support/sdk-events";

export interface TelemetryFixture {
  /** Writes `batch` in one unit of work (a transaction on the database), as the digest does. */
  write(batch: Omit<DigestRecords, "outcomes">): Promise<void>;
  projectId: number;
  /** The stored events' first grouping hashes. */
  eventHashes(projectId: number): Promise<(string | null)[]>;
  logBodies(projectId: number): Promise<string[]>;
  /** The stored session counts of `status`. */
  sessionQuantities(projectId: number, status: string): Promise<number[]>;
  cleanup(): Promise<void>;
}

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

/** What the digest's telemetry write (src/core/ports/telemetry.ts) promises: events kept once, counts added, text storable. */
export function telemetryContract(name: string, make: () => Promise<TelemetryFixture>): void {
  describe(`${name}: telemetry store`, () => {
    let f: TelemetryFixture;
    beforeAll(async () => {
      f = await make();
    });
    afterAll(() => f.cleanup());

    it("stores an event id once per project, adds session counts, and makes text storable", async () => {
      await f.write(batch(f.projectId));
      expect(await f.eventHashes(f.projectId)).toEqual(["a".repeat(32)]);
      const logs = await f.logBodies(f.projectId);
      expect(logs).toHaveLength(1);
      expect(logs[0]).not.toContain("\u0000");
      expect(await f.sessionQuantities(f.projectId, "exited")).toEqual([5]);
    });
  });
}
