/**
 * Sentry's frequency conditions (https://docs.sentry.io/api/alerts/create-an-issue-alert-rule-for-a-project/):
 * "the issue is seen more than `value` times in `interval`" and "… by more than `value` users".
 * Only `comparisonType: "count"` is taken; Sentry's "percent" (compared with an earlier window)
 * is refused by name. They are evaluated from the per-minute and per-hour counts the digest keeps
 * (src/core/issues/window-counts.ts), never by scanning events (docs/decisions/0019-frequency-conditions.md).
 */
import { z } from "zod";

export const EVENT_FREQUENCY = "sentry.rules.conditions.event_frequency.EventFrequencyCondition";
export const USER_FREQUENCY = "sentry.rules.conditions.event_frequency.EventUniqueUserFrequencyCondition";
export const FREQUENCY_IDS = [EVENT_FREQUENCY, USER_FREQUENCY] as const;

/** Sentry's intervals and their length in minutes. */
export const INTERVALS = { "1m": 1, "5m": 5, "15m": 15, "1h": 60, "1d": 1440, "1w": 10080, "30d": 43200 } as const;
export type Interval = keyof typeof INTERVALS;
const INTERVAL_WORDS: Record<Interval, string> = {
  "1m": "one minute",
  "5m": "5 minutes",
  "15m": "15 minutes",
  "1h": "one hour",
  "1d": "one day",
  "1w": "one week",
  "30d": "30 days",
};

/** A whole number, as a number or as digits (a form posts text). */
export function wholeNumber(max: number) {
  return z.preprocess(
    (v) => (typeof v === "string" && /^\s*-?\d+\s*$/.test(v) ? Number(v) : v),
    z
      .number({ error: "value is a whole number" })
      .int("value is a whole number")
      .min(0, "value is 0 or more")
      .max(max, `value is at most ${max}`),
  );
}

export const FrequencyCondition = z.object({
  id: z.enum(FREQUENCY_IDS),
  value: wholeNumber(1_000_000_000),
  interval: z.enum(Object.keys(INTERVALS) as [Interval, ...Interval[]], { error: "interval is one of 1m, 5m, 15m, 1h, 1d, 1w, 30d" }),
  comparisonType: z
    .literal("count", { error: 'comparisonType is "count": Telltale does not compare with an earlier window ("percent")' })
    .default("count"),
});
export type FrequencyCondition = z.output<typeof FrequencyCondition>;

export function isFrequency(c: { id: string }): c is FrequencyCondition {
  return (FREQUENCY_IDS as readonly string[]).includes(c.id);
}

export function describeFrequency(c: FrequencyCondition): string {
  const what = c.id === EVENT_FREQUENCY ? "The issue is seen more than" : "The issue is seen by more than";
  const unit = c.id === EVENT_FREQUENCY ? (c.value === 1 ? "time" : "times") : c.value === 1 ? "user" : "users";
  return `${what} ${c.value} ${unit} in ${INTERVAL_WORDS[c.interval]}`;
}

/** Events and distinct users of an issue in a window, as the consumer reads them. */
export interface WindowCount {
  events: number;
  users: number;
}

/** Whether a frequency condition holds for the counts over its interval (more than `value`, as Sentry). */
export function frequencyHolds(c: FrequencyCondition, counts: WindowCount): boolean {
  return (c.id === EVENT_FREQUENCY ? counts.events : counts.users) > c.value;
}
