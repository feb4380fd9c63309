/**
 * Event time: parsing, clock-drift correction and clamping, after Relay's `ClockDriftProcessor`
 * and `validate_event_timestamps` (docs/protocol.md#trimming; relay-event-normalization docs).
 *
 * - A number is seconds since the epoch, as in Sentry. A millisecond value therefore lands
 *   ~50 000 years ahead and is clamped to the received time like any other future date.
 * - A string is RFC 3339 (`2024-05-01T12:00:00.123456Z`; no zone means UTC, as Relay reads
 *   it) or a decimal number of seconds. Fractions keep microseconds.
 */
import { TIME } from "./limits";

const RFC3339 = /^(\d{4})-(\d{2})-(\d{2})[Tt ](\d{2}):(\d{2}):(\d{2})(?:\.(\d{1,9}))?(?:([Zz])|([+-])(\d{2}):?(\d{2}))?$/;
const DECIMAL = /^\d{1,12}(?:\.\d{1,9})?$/;

function parseRfc3339(text: string): number | undefined {
  const m = RFC3339.exec(text);
  if (!m) return undefined;
  const [, y, mo, d, h, mi, s, frac, , sign, oh, om] = m;
  const month = Number(mo);
  const day = Number(d);
  const hour = Number(h);
  const minute = Number(mi);
  const second = Number(s);
  if (month < 1 || month > 12 || day < 1 || day > 31 || hour > 23 || minute > 59 || second > 60) return undefined;
  let seconds = Date.UTC(Number(y), month - 1, day, hour, minute, second) / 1000;
  if (frac) seconds += Number(`0.${frac}`);
  if (sign) {
    const offset = (Number(oh) * 60 + Number(om)) * 60;
    seconds += sign === "+" ? -offset : offset;
  }
  return seconds;
}

/**
 * The last second a timestamp may name: 9999-12-31T23:59:59Z. Past it a date no longer prints
 * as ISO 8601 with four year digits, and from 8.64e12 s on it is no JavaScript `Date` at all
 * (`toISOString` throws): one such breadcrumb made its issue's page fail for good.
 */
export const LATEST_TIMESTAMP = 253_402_300_799;

/** Whether `seconds` is a time every reader can show: after the epoch, not past year 9999. */
export const inTimeRange = (seconds: number): boolean => Number.isFinite(seconds) && seconds > 0 && seconds <= LATEST_TIMESTAMP;

/**
 * Seconds since the epoch, or `undefined` when `value` is no timestamp or lies outside
 * `inTimeRange`. Every timestamp of every item type is read through this (or `boundedSeconds`).
 */
export function parseTimestamp(value: unknown): number | undefined {
  if (typeof value === "number") return inTimeRange(value) ? value : undefined;
  if (typeof value !== "string" || value.length > 40) return undefined;
  const seconds = DECIMAL.test(value) ? Number(value) : parseRfc3339(value);
  return seconds !== undefined && inTimeRange(seconds) ? seconds : undefined;
}

/** A timestamp in seconds (number or string, as `parseTimestamp` reads it), else `fallback`. */
export const boundedSeconds = (value: unknown, fallback: number): number => parseTimestamp(value) ?? fallback;

/** Seconds from a `Date`, a timestamp string or number; `undefined` when unusable. */
export function toSeconds(value: Date | string | number | null | undefined): number | undefined {
  if (value instanceof Date) {
    const ms = value.getTime();
    return Number.isFinite(ms) ? ms / 1000 : undefined;
  }
  return parseTimestamp(value);
}

/**
 * The correction for a sender whose clock is off: `received - sent_at` when that is at least
 * Relay's 55-minute minimum (smaller differences are latency or small drift), else 0. A positive
 * value means the sender's clock was behind.
 */
export function clockDrift(receivedAt: number, sentAt: number | undefined): number {
  if (sentAt === undefined) return 0;
  const drift = receivedAt - sentAt;
  return Math.abs(drift) >= TIME.minimumClockDrift ? drift : 0;
}

export interface TimeWindow {
  receivedAt: number;
  maxSecsInPast: number;
  maxSecsInFuture: number;
}

export type ClampReason = "missing" | "future" | "past" | null;

/**
 * How far to move an event timestamp so it lies in `[received - past, received + future]`:
 * an out-of-range or missing timestamp becomes the received time (Relay's behaviour).
 */
export function clampShift(timestamp: number | undefined, window: TimeWindow): { shift: number; reason: ClampReason } {
  const { receivedAt } = window;
  if (timestamp === undefined) return { shift: 0, reason: "missing" };
  if (timestamp > receivedAt + window.maxSecsInFuture) return { shift: receivedAt - timestamp, reason: "future" };
  if (timestamp < receivedAt - window.maxSecsInPast) return { shift: receivedAt - timestamp, reason: "past" };
  return { shift: 0, reason: null };
}
