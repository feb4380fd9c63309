import { describe, expect, it } from "vitest";
import { spanV2Records } from "./spans";

const T = 1_795_337_617;
const TRACE = "0af7651916cd43dd8448eb211c80319c";
const SEGMENT = "a1b2c3d4e5f60718";
const attr = (value: string) => ({ value, type: "string" });

function span(id: string, start: number, end: number, extra: Record<string, unknown> = {}) {
  return {
    trace_id: TRACE,
    span_id: id,
    parent_span_id: SEGMENT,
    name: id,
    start_timestamp: start,
    end_timestamp: end,
    attributes: { "sentry.segment.id": attr(SEGMENT) },
    ...extra,
  };
}

describe("span v2 records", () => {
  const segment = { trace_id: TRACE, span_id: SEGMENT, name: "GET /", start_timestamp: T, end_timestamp: T + 2, is_segment: true };

  it("drops a child span from 1970 and counts it as a bad time; the segment and its other children stay", () => {
    const rows = spanV2Records(1, T * 1000, [segment, span("1000000000000001", T + 0.5, T + 1), span("1000000000000002", 1000.5, 1000.6)]);
    expect(rows.spans.map((s) => s.spanId)).toEqual([SEGMENT, "1000000000000001"]);
    expect(rows.segments).toHaveLength(1);
    expect(rows).toMatchObject({ badTimes: 1, invalid: 0, dropped: 0 });
  });

  it("drops a span more than a minute past its segment when the segment came in the same container", () => {
    const rows = spanV2Records(1, T * 1000, [segment, span("1000000000000001", T + 1, T + 63)]);
    expect(rows.spans.map((s) => s.spanId)).toEqual([SEGMENT]);
    expect(rows.badTimes).toBe(1);
  });

  it("keeps a lone span whose segment is elsewhere unless it lies before 2000", () => {
    const rows = spanV2Records(1, T * 1000, [span("1000000000000001", T + 3600, T + 3601), span("1000000000000002", 5, 6)]);
    expect(rows.spans.map((s) => s.spanId)).toEqual(["1000000000000001"]);
    expect(rows.badTimes).toBe(1);
  });

  it("drops a segment span from 1970 itself", () => {
    const rows = spanV2Records(1, T * 1000, [{ ...segment, start_timestamp: 1, end_timestamp: 2 }]);
    expect(rows.spans).toEqual([]);
    expect(rows.segments).toEqual([]);
    expect(rows.badTimes).toBe(1);
  });
});
