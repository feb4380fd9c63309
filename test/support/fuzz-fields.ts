import fc from "fast-check";
import { buildEnvelope, eventItem, newEventId, type ItemSpec } from "./envelopes";
import { SKELETONS } from "./fuzz";

/**
 * Values a timestamp, text or integer field may be sent, each of a kind that has broken a
 * database or a page: NUL and lone surrogates (PostgreSQL `text`), numbers past a `bigint` or a
 * `Date` (1e20, 2^64, 8.64e12 s), the largest doubles, negative and zero, and strings that look
 * like numbers JSON cannot carry.
 */
export const HOSTILE_SCALARS: readonly unknown[] = [
  "\u0000",
  "a\u0000b",
  "\ud800",
  "x\udfffy",
  "",
  " padded\n",
  1e20,
  1e308,
  -1e308,
  -1,
  0,
  1.5,
  8.64e12,
  8.65e12,
  2 ** 63,
  18446744073709551616,
  "18446744073709551616",
  "999999999999",
  "10000-01-01T00:00:00Z",
  "NaN",
  "Infinity",
  "-1",
  "1e400",
];

type Path = readonly (string | number)[];

const fields = (type: string, paths: Path[]): [string, Path][] => paths.map((path) => [type, path]);

/**
 * Every timestamp of every item type, and every field the digest stores in a text or integer
 * column, as a path into that type's skeleton (test/support/fuzz.ts).
 */

export const HOSTILE_FIELDS: readonly [type: string, path: Path][] = [
  ...fields("event", [
    ["timestamp"],
    ["breadcrumbs", 0, "timestamp"],
    ["breadcrumbs", 0, "message"],
    ["breadcrumbs", 0, "category"],
    ["release"],
    ["environment"],
    ["message"],
    ["level"],
    ["logger"],
    ["server_name"],
    ["transaction"],
    ["tags", "shard"],
    ["contexts", "os", "version"],
    ["contexts", "os", "name"],
    ["contexts", "trace", "trace_id"],
    ["user", "id"],
    ["exception", "values", 0, "type"],
    ["exception", "values", 0, "value"],
    ["fingerprint", 0],
  ]),
  ...fields("transaction", [
    ["timestamp"],
    ["start_timestamp"],
    ["spans", 0, "timestamp"],
    ["spans", 0, "start_timestamp"],
    ["spans", 0, "op"],
    ["spans", 0, "description"],
    ["breadcrumbs", 0, "timestamp"],
    ["transaction"],
    ["contexts", "trace", "op"],
    ["contexts", "trace", "status"],
  ]),
  ...fields("feedback", [
    ["timestamp"],
    ["contexts", "feedback", "message"],
    ["contexts", "feedback", "name"],
    ["contexts", "feedback", "contact_email"],
  ]),
  ...fields("user_report", [["name"], ["email"], ["comments"], ["event_id"]]),
  ...fields("check_in", [["check_in_id"], ["monitor_slug"], ["status"], ["duration"], ["environment"], ["timestamp"]]),
  ...fields("log", [
    ["items", 0, "timestamp"],
    ["items", 0, "level"],
    ["items", 0, "body"],
    ["items", 0, "trace_id"],
    ["items", 0, "attributes", "a", "value"],
  ]),
  ...fields("span", [
    ["items", 0, "start_timestamp"],
    ["items", 0, "end_timestamp"],
    ["items", 0, "name"],
    ["items", 0, "status"],
    ["items", 0, "parent_span_id"],
    ["items", 0, "attributes", "sentry.op", "value"],
  ]),
  ...fields("session", [
    ["started"],
    ["timestamp"],
    ["duration"],
    ["errors"],
    ["sid"],
    ["did"],
    ["status"],
    ["attrs", "release"],
    ["attrs", "environment"],
  ]),
  ...fields("sessions", [
    ["aggregates", 0, "started"],
    ["aggregates", 0, "exited"],
    ["aggregates", 0, "errored"],
    ["aggregates", 0, "crashed"],
    ["aggregates", 0, "abnormal"],
    ["aggregates", 0, "did"],
    ["attrs", "release"],
    ["attrs", "environment"],
  ]),
  ...fields("client_report", [
    ["timestamp"],
    ["discarded_events", 0, "quantity"],
    ["discarded_events", 0, "category"],
    ["discarded_events", 0, "reason"],
  ]),
];

/** Item headers the container types are sent with by SDKs. */
const HEADERS: Record<string, Record<string, unknown>> = {
  span: { item_count: 1, content_type: "application/vnd.sentry.items.span.v2+json" },
  log: { item_count: 1, content_type: "application/vnd.sentry.items.log+json" },
};

/** A plain object's or array's member, made when missing, so a path can be written into a skeleton. */
function child(parent: Record<string | number, unknown>, key: string | number, next: string | number): Record<string | number, unknown> {
  const existing = parent[key];
  if (typeof existing === "object" && existing !== null) return existing as Record<string | number, unknown>;
  const made: Record<string | number, unknown> = typeof next === "number" ? ([{}] as unknown as Record<number, unknown>) : {};
  parent[key] = made;
  return made;
}

function setPath(root: Record<string, unknown>, path: Path, value: unknown): void {
  let at: Record<string | number, unknown> = root;
  for (let i = 0; i < path.length - 1; i++) at = child(at, path[i]!, path[i + 1]!);
  at[path[path.length - 1]!] = value;
}

/** Breadcrumbs the event and transaction skeletons lack, so their times and text can be made hostile. */
const withCrumbs = (payload: Record<string, unknown>) => ({
  breadcrumbs: [{ timestamp: payload.timestamp, message: "crumb" }],
  ...payload,
});

export interface HostileFieldCase {
  /** `type.path = value`, for a failure message. */
  label: string;
  body: Buffer;
  /** The good error event sent beside the hostile item, which must be stored. */
  goodEventId: string;
}

/**
 * One envelope per field and value: the field's item type with that field hostile, and a valid
 * error event beside it. Each field gets `perField` values, picked by a seeded shuffle (so a
 * run is repeatable and different seeds cover the rest), with NUL, 1e20 and 8.65e12 always among them.
 */
export function hostileFieldCases(seed: number, perField: number): HostileFieldCase[] {
  const always: readonly unknown[] = ["a\u0000b", 1e20, 8.65e12];
  const rest = HOSTILE_SCALARS.filter((v) => !always.includes(v));
  const picks = fc.sample(fc.shuffledSubarray(rest, { minLength: perField, maxLength: perField }), {
    seed,
    numRuns: HOSTILE_FIELDS.length,
  });
  return HOSTILE_FIELDS.flatMap(([type, path], i) =>
    [...always, ...(picks[i] ?? [])].map((value) => {
      const ids = { event: newEventId(), trace: newEventId(), span: newEventId().slice(0, 16) };
      const skeleton = SKELETONS[type]?.(ids) ?? {};
      const payload = type === "event" || type === "transaction" ? withCrumbs(skeleton) : skeleton;
      setPath(payload, path, value);
      const goodEventId = newEventId();
      const hostile: ItemSpec = { type, payload: JSON.stringify(payload), ...(HEADERS[type] ? { headers: HEADERS[type] } : {}) };
      return {
        label: `${type}.${path.join(".")} = ${JSON.stringify(value)}`,
        body: buildEnvelope({}, [hostile, eventItem(goodEventId, `good event beside ${type}`)]),
        goodEventId,
      };
    }),
  );
}
