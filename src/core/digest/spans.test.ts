import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { fuzzParameters } from "../../../test/support/fuzz";
import { spanAttributes, spanV2Records } from "./spans";

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

describe("span v2 attributes shared with the segment", () => {
  const T0 = 1_795_337_617;
  // What @sentry/node 11 repeats on every span of a request (seen in the bench corpus).
  const common = {
    "sentry.origin": attr("manual"),
    "sentry.trace_lifecycle": attr("static"),
    "sentry.segment.name": attr("GET /cart"),
    "sentry.segment.id": attr(SEGMENT),
    "sentry.sdk.name": attr("sentry.javascript.node"),
    "sentry.sdk.version": attr("11.1.0"),
    "sentry.release": attr("shop@1.4.2"),
    "sentry.environment": attr("production"),
    "sentry.is_localhost": { value: true, type: "boolean" },
  };
  const segmentItem = (attributes: Record<string, unknown>) => ({
    trace_id: TRACE,
    span_id: SEGMENT,
    name: "GET /cart",
    start_timestamp: T0,
    end_timestamp: T0 + 2,
    is_segment: true,
    attributes,
  });
  const child = (attributes: Record<string, unknown>) => ({ ...span("1000000000000001", T0 + 0.5, T0 + 1), attributes });

  it("stores a child span without what its segment holds, and gives every attribute back", () => {
    const segmentAttributes = { ...common, "sentry.op": attr("http.server"), "http.request.method": attr("GET") };
    const childAttributes = { ...common, "sentry.op": attr("db"), "db.statement": attr("select 1"), "sentry.origin": attr("auto.db") };
    const rows = spanV2Records(1, T0 * 1000, [segmentItem(segmentAttributes), child(childAttributes)]);
    const [segmentRow, childRow] = rows.spans;
    expect(JSON.parse(segmentRow!.data)).toEqual({ is_segment: true, attributes: segmentAttributes });
    const stored = JSON.parse(childRow!.data) as { attributes: Record<string, unknown> };
    // Only what differs from the segment (the op, the origin, the statement) is the child's own.
    expect(Object.keys(stored.attributes).sort()).toEqual(["db.statement", "sentry.op", "sentry.origin"]);
    expect(childRow!.data.length).toBeLessThan(JSON.stringify({ is_segment: false, attributes: childAttributes }).length / 3);
    expect(spanAttributes(childRow!.data, segmentRow!.data)).toEqual(childAttributes);
  });

  it("keeps a child's attributes whole when its segment is not in the container", () => {
    const rows = spanV2Records(1, T0 * 1000, [child({ ...common })]);
    expect(JSON.parse(rows.spans[0]!.data)).toEqual({ is_segment: false, attributes: common });
    expect(spanAttributes(rows.spans[0]!.data, null)).toEqual(common);
  });

  it("keeps a child's attributes whole when two segments in the container share its segment's id", () => {
    const rows = spanV2Records(1, T0 * 1000, [
      segmentItem({ ...common }),
      segmentItem({ ...common, "sentry.release": attr("other") }),
      child({ ...common }),
    ]);
    expect(JSON.parse(rows.spans[2]!.data)).toEqual({ is_segment: false, attributes: common });
  });

  it("gives back exactly the attributes sent, whatever the segment and child hold", () => {
    const { seed, numRuns } = fuzzParameters("span attributes shared with the segment", 200);
    const key = fc.oneof(fc.constantFrom("__proto__", "constructor", "0", "sentry.release", "a", "b"), fc.string({ maxLength: 8 }));
    const value = fc.oneof(
      fc.record({
        value: fc.oneof(fc.string({ maxLength: 6 }), fc.integer(), fc.boolean()),
        type: fc.constantFrom("string", "integer", "boolean"),
      }),
      fc.constantFrom(null, 1, "x"),
    );
    const attributes = fc.dictionary(key, value, { maxKeys: 40 });
    fc.assert(
      fc.property(attributes, attributes, fc.double({ min: 0, max: 1, noNaN: true }), (segmentAttrs, childOwn, overlap) => {
        // Part of the child's attributes copied from the segment's, so that many are shared.
        const copied = Object.entries(segmentAttrs).filter((_, i) => (i * 0.37) % 1 < overlap);
        // The child names its segment (as SDKs do), which is how its segment's attributes are found.
        const childAttrs = Object.fromEntries([...copied, ...Object.entries(childOwn), ["sentry.segment.id", attr(SEGMENT)]]);
        const rows = spanV2Records(1, T0 * 1000, [segmentItem(segmentAttrs), child(childAttrs)]);
        const [segmentRow, childRow] = rows.spans;
        expect(spanAttributes(childRow!.data, segmentRow!.data)).toEqual(childAttrs);
      }),
      { seed, numRuns },
    );
  });
});
