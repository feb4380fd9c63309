/**
 * Spans with impossible times. A span that starts in 1970 (a clock read as an offset, or
 * milliseconds taken for seconds) stretches its trace over fifty years: the trace header reads
 * "1795337617860.3 ms", every real span is squashed to one edge, and retention deletes the row
 * on every run. Such a span is dropped and counted (`invalid_timestamp`), as Relay counts the
 * items it refuses (https://getsentry.github.io/relay/relay_server/services/outcome/enum.DiscardReason.html).
 * The rule: a start or end before 2000 or after year 9999 (`inTimeRange`), or more than `TIME.spanSegmentSlack` seconds outside the
 * segment's own range, is invalid. Nothing else is ignored when a trace's extent is computed.
 */
import { TIME } from "./limits";
import { inTimeRange } from "./timestamps";

/** A segment's (transaction's) start and end, in seconds since the epoch. */
export interface TimeRange {
  start: number;
  end: number;
}

/** Whether a span from `start` to `end` (seconds) may be stored; `segment` is unknown for a lone span. */
export function spanTimesValid(start: number, end: number, segment?: TimeRange): boolean {
  if (!inTimeRange(start) || !inTimeRange(end)) return false;
  if (start < TIME.earliestSpan || end < TIME.earliestSpan) return false;
  if (!segment) return true;
  const low = segment.start - TIME.spanSegmentSlack;
  const high = segment.end + TIME.spanSegmentSlack;
  return start >= low && start <= high && end >= low && end <= high;
}

/** The spans whose times fit their segment, and how many did not. */
export function keepTimelySpans<T extends { start_timestamp: number; timestamp: number }>(
  spans: readonly T[],
  segment: TimeRange,
): { kept: T[]; dropped: number } {
  const kept = spans.filter((s) => spanTimesValid(s.start_timestamp, s.timestamp, segment));
  return { kept, dropped: spans.length - kept.length };
}
