import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { StoredEvent, TelemetryReader } from "../../src/core/ports/telemetry-read";

export interface SeedEvent {
  projectId: number;
  issueId: number | null;
  eventId: string;
  /** Seconds. */
  timestamp: number;
  traceId?: string;
}

export interface SeedSpan {
  projectId: number;
  traceId: string;
  spanId: string;
  startTimestamp: number;
  /** A transaction (a segment) rather than a plain span. */
  transaction?: boolean;
}

export interface TelemetryReaderFixture {
  reader: TelemetryReader;
  /** Two projects of one organization, then one of another. */
  organizationId: number;
  projects: [number, number, number];
  /** A new issue of the project. */
  issue(projectId: number): Promise<number>;
  event(e: SeedEvent): Promise<void>;
  span(s: SeedSpan): Promise<void>;
  /** An attachment of a project's event, stored in these chunks; `complete` false while it is still arriving. */
  attachment(projectId: number, eventId: string, name: string, chunks: Buffer[], complete: boolean): Promise<number>;
  cleanup(): Promise<void>;
}

const hex = (n: number) => n.toString(16).padStart(32, "0");

/** What the issue, event and trace pages read back (src/core/ports/telemetry-read.ts). */
export function telemetryReaderContract(name: string, make: () => Promise<TelemetryReaderFixture>): void {
  describe(`${name}: telemetry reader`, () => {
    let f: TelemetryReaderFixture;
    let shop = 0;
    let issueId = 0;
    // Five events of one issue; the last two share a timestamp, so the id breaks the tie.
    const ids = [1, 2, 3, 4, 5].map(hex);

    beforeAll(async () => {
      f = await make();
      [shop] = f.projects;
      issueId = await f.issue(shop);
      for (const [i, offset] of [0, 60, 120, 180, 180].entries())
        await f.event({ projectId: shop, issueId, eventId: ids[i] ?? "", timestamp: 1_700_000_000 + offset });
    });
    afterAll(() => f.cleanup());

    const eventIds = (events: StoredEvent[]) => events.map((e) => e.event_id);
    const at = async (which: "latest" | "oldest") => {
      const event = await f.reader.issueEventAt(issueId, which);
      if (!event) throw new Error(`no ${which} event`);
      return event;
    };

    it("lists an issue's events newest first and pages by (timestamp, id) either way", async () => {
      const all = await f.reader.issueEvents(issueId, { limit: 10 });
      expect(eventIds(all)).toEqual([...ids].reverse());
      const first = await f.reader.issueEvents(issueId, { limit: 2 });
      const last = first[first.length - 1];
      if (!last) throw new Error("empty page");
      const rest = await f.reader.issueEvents(issueId, { limit: 10, before: { timestamp: last.timestamp, id: last.id } });
      expect(eventIds([...first, ...rest])).toEqual(eventIds(all));
      // A previous page reads the nearest newer events first.
      const newer = await f.reader.issueEvents(issueId, { limit: 2, after: { timestamp: last.timestamp, id: last.id } });
      expect(eventIds(newer)).toEqual([ids[4]]);
    });

    it("lists a project's events, grouped or not, newest first, in the same pages either way", async () => {
      const loose = hex(6);
      await f.event({ projectId: shop, issueId: null, eventId: loose, timestamp: 1_700_000_500 });
      const all = await f.reader.projectEvents(shop, { limit: 10 });
      expect(eventIds(all)).toEqual([loose, ...[...ids].reverse()]);
      const [, second] = all;
      if (!second) throw new Error("too few events");
      const cut = { timestamp: second.timestamp, id: second.id };
      expect(eventIds(await f.reader.projectEvents(shop, { limit: 2, before: cut }))).toEqual([ids[3], ids[2]]);
      expect(eventIds(await f.reader.projectEvents(shop, { limit: 2, after: cut }))).toEqual([loose]);
      expect(await f.reader.projectEvents(f.projects[2], { limit: 10 })).toEqual([]);
      // The issue's own list leaves the loose event out.
      expect(eventIds(await f.reader.issueEvents(issueId, { limit: 10 }))).not.toContain(loose);
    });

    it("finds the newest and the oldest event, each event's neighbours, and an event only within its project", async () => {
      expect((await at("latest")).event_id).toBe(ids[4]);
      expect((await at("oldest")).event_id).toBe(ids[0]);
      expect(await f.reader.issueEventAt(issueId + 1000, "latest")).toBeNull();
      const middle = await f.reader.eventInProject(shop, ids[3] ?? "");
      if (!middle) throw new Error("event not found");
      const { previous, next } = await f.reader.adjacentEvents(middle);
      expect(previous?.event_id).toBe(ids[2]);
      expect(next?.event_id).toBe(ids[4]);
      const newest = await f.reader.adjacentEvents(await at("latest"));
      expect(newest.next).toBeNull();
      expect(newest.previous?.event_id).toBe(ids[3]);
      expect(await f.reader.eventInProject(f.projects[1], ids[3] ?? "")).toBeNull();
    });

    it("reads a trace's transactions, spans and errors within the organization and the visible projects, spans capped at one past the limit", async () => {
      const [, second, foreign] = f.projects;
      const trace = "a".repeat(32);
      await f.span({ projectId: shop, traceId: trace, spanId: "1".repeat(16), startTimestamp: 10, transaction: true });
      for (const [i, projectId] of [shop, shop, second, shop, foreign].entries())
        await f.span({ projectId, traceId: trace, spanId: `${i + 2}`.repeat(16), startTimestamp: 20 - i });
      await f.event({ projectId: second, issueId: await f.issue(second), eventId: hex(99), timestamp: 15, traceId: trace });
      await f.span({ projectId: shop, traceId: "b".repeat(32), spanId: "9".repeat(16), startTimestamp: 1 });

      const all = await f.reader.trace(f.organizationId, null, trace, 10);
      expect(all.transactions.map((t) => t.span_id)).toEqual(["1".repeat(16)]);
      expect(all.spans.map((s) => s.span_id)).toEqual(["5", "4", "3", "2"].map((d) => d.repeat(16)));
      expect(all.errors.map((e) => e.event_id)).toEqual([hex(99)]);
      expect((await f.reader.trace(f.organizationId, null, trace, 2)).spans.map((s) => s.span_id)).toEqual(
        ["5", "4", "3"].map((d) => d.repeat(16)),
      );
      const shopOnly = await f.reader.trace(f.organizationId, [shop], trace, 10);
      expect(shopOnly.spans.map((s) => s.span_id)).toEqual(["5", "3", "2"].map((d) => d.repeat(16)));
      expect(shopOnly.errors).toEqual([]);
      expect(await f.reader.trace(f.organizationId, [], trace, 10)).toEqual({ transactions: [], spans: [], errors: [] });
    });

    it("lists an event's complete attachments, and streams one chunk by chunk, only within its project", async () => {
      const eventId = ids[2] ?? "";
      const done = await f.attachment(shop, eventId, "log.txt", [Buffer.from("first "), Buffer.from("second")], true);
      const partial = await f.attachment(shop, eventId, "half.txt", [Buffer.from("half")], false);
      const listed = { id: done, name: "log.txt", size: 12, content_type: "text/plain" };
      expect(await f.reader.eventAttachments(shop, eventId)).toEqual([listed]);
      expect(await f.reader.eventAttachment(shop, eventId, done)).toEqual(listed);
      expect(await f.reader.eventAttachment(shop, eventId, partial)).toBeNull();
      expect(await f.reader.eventAttachment(f.projects[1], eventId, done)).toBeNull();
      expect(await f.reader.eventAttachment(shop, ids[3] ?? "", done)).toBeNull();
      const parts: string[] = [];
      for await (const chunk of f.reader.attachmentChunks(done)) parts.push(chunk.toString());
      expect(parts).toEqual(["first ", "second"]);
    });
  });
}
