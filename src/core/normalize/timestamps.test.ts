import { describe, expect, it } from "vitest";
import { normalizeEvent, type NormalizeOptions } from "./normalize-event";
import { RECEIVED_AT, RECEIVED_SECONDS, transactionEvent } from "../../../test/support/sdk-events";
import { boundedSeconds, clockDrift, LATEST_TIMESTAMP, parseTimestamp } from "./timestamps";
import type { NormalizedEvent } from "./types";

const HOUR = 3600;
const DAY = 24 * HOUR;

function normalized(raw: unknown, opts: Partial<NormalizeOptions> = {}): { event: NormalizedEvent; warnings: string[] } {
  const result = normalizeEvent(raw, { receivedAt: RECEIVED_AT, ...opts });
  if (!result.ok) throw new Error(result.reason);
  return result;
}

function isoAt(seconds: number): string {
  return new Date(seconds * 1000).toISOString();
}

describe("parseTimestamp", () => {
  it("reads numbers as seconds", () => {
    expect(parseTimestamp(1795331379.614)).toBe(1795331379.614);
  });

  it("reads RFC 3339 with Z, with an offset, without a zone (UTC) and with microseconds", () => {
    expect(parseTimestamp("2026-11-22T07:09:19Z")).toBe(1795331359);
    expect(parseTimestamp("2026-11-22T09:09:19+02:00")).toBe(1795331359);
    expect(parseTimestamp("2026-11-22T07:09:19")).toBe(1795331359);
    expect(parseTimestamp("2026-11-22T07:09:19.838516Z")).toBeCloseTo(1795331359.838516, 6);
  });

  it("reads a decimal string as seconds", () => {
    expect(parseTimestamp("1795331359.5")).toBe(1795331359.5);
  });

  it("rejects a time past year 9999, as a number, a decimal string or RFC 3339 (8.64e12 s is no Date)", () => {
    for (const value of [8.64e12, 1e20, 1e308, "999999999999", "18446744073709551616", "10000-01-01T00:00:00Z", Number.POSITIVE_INFINITY]) {
      expect(parseTimestamp(value)).toBeUndefined();
    }
    expect(parseTimestamp(LATEST_TIMESTAMP)).toBe(LATEST_TIMESTAMP);
    expect(parseTimestamp("9999-12-31T23:59:59Z")).toBe(LATEST_TIMESTAMP);
    expect(boundedSeconds(1e20, 7)).toBe(7);
  });

  it("keeps no breadcrumb or span time past year 9999: the crumb loses its time, the span is dropped", () => {
    const { event } = normalized({
      type: "transaction",
      timestamp: RECEIVED_SECONDS,
      start_timestamp: 1e308,
      breadcrumbs: [
        { message: "far", timestamp: 8.65e12 },
        { message: "string", timestamp: "999999999999" },
      ],
      spans: [{ span_id: "a1b2c3d4e5f60718", start_timestamp: RECEIVED_SECONDS - 1, timestamp: 1e20 }],
    });
    expect(event.breadcrumbs?.values.map((c) => c.timestamp)).toEqual([undefined, undefined]);
    expect(event.spans ?? []).toEqual([]);
    expect(event.start_timestamp).toBe(event.timestamp);
  });

  it("rejects garbage, negative numbers, impossible dates and very long strings", () => {
    for (const value of ["yesterday", -5, 0, Number.NaN, "2026-13-01T00:00:00Z", "2026-11-22T25:00:00Z", "1".repeat(1000), null, {}, []]) {
      expect(parseTimestamp(value)).toBeUndefined();
    }
  });
});

describe("clockDrift", () => {
  it("is zero below 55 minutes and the signed difference from 55 minutes on", () => {
    expect(clockDrift(10_000, 10_000 - 54 * 60)).toBe(0);
    expect(clockDrift(10_000, 10_000 - 55 * 60)).toBe(55 * 60);
    expect(clockDrift(10_000, 10_000 + 2 * HOUR)).toBe(-2 * HOUR);
    expect(clockDrift(10_000, undefined)).toBe(0);
  });
});

describe("normalizeEvent timestamps", () => {
  it("shifts every timestamp by a 2-hour drift between sent_at and the received time", () => {
    const lag = 2 * HOUR;
    const sent = RECEIVED_SECONDS - lag; // the sender's clock runs two hours behind
    const raw = transactionEvent(2);
    const start = (raw.start_timestamp as number) - lag;
    raw.start_timestamp = start;
    raw.timestamp = start + 5;
    for (const span of raw.spans as Array<Record<string, number>>) {
      span.start_timestamp = (span.start_timestamp ?? 0) - lag;
      span.timestamp = (span.timestamp ?? 0) - lag;
    }
    raw.breadcrumbs = [{ message: "m", timestamp: start + 1 }];
    const { event, warnings } = normalized(raw, { sentAt: isoAt(sent) });
    expect(event.start_timestamp).toBeCloseTo(start + lag, 6);
    expect(event.timestamp).toBeCloseTo(start + lag + 5, 6);
    expect(event.spans?.[0]?.start_timestamp).toBeCloseTo(RECEIVED_SECONDS - 10, 6);
    expect(event.breadcrumbs?.values[0]?.timestamp).toBeCloseTo(start + lag + 1, 6);
    expect(warnings).toContain("timestamps: corrected a clock drift of 7200 s (sent_at)");
  });

  it("corrects a sender whose clock runs a day ahead", () => {
    const ahead = DAY;
    const { event } = normalized({ timestamp: RECEIVED_SECONDS + ahead - 3 }, { sentAt: new Date((RECEIVED_SECONDS + ahead) * 1000) });
    expect(event.timestamp).toBeCloseTo(RECEIVED_SECONDS - 3, 6);
  });

  it("leaves timestamps alone when sent_at is only 10 minutes off", () => {
    const sent = RECEIVED_SECONDS - 10 * 60;
    const { event, warnings } = normalized({ timestamp: sent - 1, breadcrumbs: [{ timestamp: sent - 2 }] }, { sentAt: isoAt(sent) });
    expect(event.timestamp).toBe(sent - 1);
    expect(event.breadcrumbs?.values[0]?.timestamp).toBe(sent - 2);
    expect(warnings).toEqual([]);
  });

  it("replaces a timestamp more than a minute in the future with the received time", () => {
    const { event, warnings } = normalized({ timestamp: RECEIVED_SECONDS + 10 * 60 });
    expect(event.timestamp).toBe(RECEIVED_SECONDS);
    expect(warnings).toContain("timestamp: too far in the future; the received time is used");
  });

  it("keeps a timestamp a few seconds in the future", () => {
    expect(normalized({ timestamp: RECEIVED_SECONDS + 5 }).event.timestamp).toBe(RECEIVED_SECONDS + 5);
  });

  it("treats a millisecond number as seconds, so it is clamped as a future date", () => {
    const { event } = normalized({ timestamp: RECEIVED_SECONDS * 1000 });
    expect(event.timestamp).toBe(RECEIVED_SECONDS);
  });

  it("replaces a timestamp older than the retention window with the received time, with a warning", () => {
    const { event, warnings } = normalized({ timestamp: RECEIVED_SECONDS - 31 * DAY });
    expect(event.timestamp).toBe(RECEIVED_SECONDS);
    expect(warnings).toContain("timestamp: older than the retention window; the received time is used");
  });

  it("honours a project's own retention window", () => {
    const old = RECEIVED_SECONDS - 31 * DAY;
    expect(normalized({ timestamp: old }, { maxSecsInPast: 90 * DAY }).event.timestamp).toBe(old);
  });

  it("moves a clamped transaction as a whole so its duration and spans stay consistent", () => {
    const raw = transactionEvent(1);
    const start = RECEIVED_SECONDS + DAY;
    raw.start_timestamp = start;
    raw.timestamp = start + 5;
    const spans = raw.spans as Array<Record<string, number>>;
    spans[0] = { ...spans[0], start_timestamp: start + 1, timestamp: start + 2 };
    const { event } = normalized(raw);
    expect(event.timestamp).toBe(RECEIVED_SECONDS);
    expect(event.start_timestamp).toBe(RECEIVED_SECONDS - 5);
    expect(event.spans?.[0]).toMatchObject({ start_timestamp: RECEIVED_SECONDS - 4, timestamp: RECEIVED_SECONDS - 3 });
  });

  it("uses the received time when the timestamp is missing or invalid", () => {
    for (const timestamp of [undefined, "soon", -1]) {
      const { event, warnings } = normalized({ timestamp });
      expect(event.timestamp).toBe(RECEIVED_SECONDS);
      expect(warnings).toContain("timestamp: missing or invalid; the received time is used");
    }
  });

  it("sets a transaction's start to its end when the start is missing or later", () => {
    expect(normalized({ type: "transaction", timestamp: RECEIVED_SECONDS - 1 }).event.start_timestamp).toBe(RECEIVED_SECONDS - 1);
    const { event, warnings } = normalized({ type: "transaction", timestamp: RECEIVED_SECONDS - 5, start_timestamp: RECEIVED_SECONDS - 1 });
    expect(event.start_timestamp).toBe(RECEIVED_SECONDS - 5);
    expect(warnings).toContain("start_timestamp: after timestamp; set to the timestamp");
  });

  it("ignores an unreadable sent_at", () => {
    const { event } = normalized({ timestamp: RECEIVED_SECONDS - 1 }, { sentAt: "not a date" });
    expect(event.timestamp).toBe(RECEIVED_SECONDS - 1);
  });
});
