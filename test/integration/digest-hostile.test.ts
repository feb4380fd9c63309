import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { ItemHeader } from "../../src/core/envelope/index";
import { AttachmentWriter } from "../../src/core/ingest/attachments";
import type { NormalizedEvent } from "../../src/core/normalize/types";
import { serializeEvent } from "../../src/server/api/serialize-event";
import { tempAttachmentSpool } from "../../src/server/ingest/attachment-spool";
import { buildEnvelope, eventItem, newEventId, type ItemSpec } from "../support/envelopes";
import { openDigestBench, type DigestBench } from "../support/digest";
import { outcomesOf, quantity } from "../support/ingest-db";
import { DIALECTS } from "../support/stores";
import { decodePayload } from "../../src/core/storage/payload";

/** JSON nested `depth` levels deep under one key: ~2 bytes a level, as the attack sent. */
const deep = (depth: number) => `{"deep":${"[".repeat(depth)}${"]".repeat(depth)}}`;
const NUL = "\u0000";
const hex = (n: number) => newEventId().slice(0, n);
const now = () => Date.now() / 1000;

/** Item type → the outcome category its items are counted in. */
const DEEP_CASES: [type: string, category: string][] = [
  ["event", "error"],
  ["transaction", "transaction"],
  ["feedback", "feedback"],
  ["user_report", "feedback"],
  ["check_in", "monitor"],
  ["log", "log_item"],
  ["span", "span"],
  ["session", "session"],
  ["sessions", "session"],
];

describe.each(DIALECTS)("hostile items on %s", (dialect) => {
  let bench: DigestBench;
  beforeAll(async () => void (bench = await openDigestBench(dialect)));
  afterAll(async () => bench.store.cleanup());

  it.each(DEEP_CASES)("counts a %s item nested 30,000 levels deep as invalid (too_deep) and keeps digesting", async (type, category) => {
    const before = quantity(await outcomesOf(bench.store, bench.projectId), category, "invalid", "too_deep");
    await bench.enqueue(buildEnvelope({ event_id: newEventId() }, [{ type, payload: deep(30_000) }]));
    await bench.drain();
    expect(quantity(await outcomesOf(bench.store, bench.projectId), category, "invalid", "too_deep")).toBe(before + 1);
    expect(await bench.legitimateEventStored()).toBe(true);
  });

  it("stores items nested 100 levels deep as usual", async () => {
    const nested = JSON.parse(deep(100)) as unknown;
    const slug = `nested-${hex(6)}`;
    await bench.enqueue(
      buildEnvelope({}, [
        { type: "check_in", payload: JSON.stringify({ check_in_id: hex(32), monitor_slug: slug, status: "ok", extra: nested }) },
      ]),
    );
    await bench.drain();
    expect(await bench.store.db.selectFrom("check_ins").select("id").where("monitor_slug", "=", slug).execute()).toHaveLength(1);
  });

  /** One item per finding, each carrying NUL (and a lone surrogate) where the database stores text. */
  const nulItems = (tag: string): ItemSpec[] => {
    const traceId = hex(32);
    return [
      { type: "event", payload: JSON.stringify({ event_id: newEventId(), message: `${tag} event${NUL}\ud800`, timestamp: now() }) },
      {
        type: "log",
        payload: JSON.stringify({
          items: [{ timestamp: now(), level: `warn${NUL}`, body: `${tag} log${NUL}\udc00`, trace_id: `${NUL}x` }],
        }),
      },
      {
        type: "user_report",
        payload: JSON.stringify({ event_id: `${NUL}${newEventId()}`, name: `${tag} name${NUL}`, email: `a${NUL}@b`, comments: `c${NUL}` }),
      },
      {
        type: "check_in",
        payload: JSON.stringify({
          check_in_id: `${NUL}${hex(8)}`,
          monitor_slug: `${tag}-slug${NUL}`,
          status: `ok${NUL}`,
          environment: `e${NUL}`,
        }),
      },
      {
        type: "session",
        payload: JSON.stringify({
          sid: hex(32),
          init: true,
          status: "exited",
          started: new Date().toISOString(),
          attrs: { release: `${tag}@1${NUL}`, environment: `prod${NUL}` },
        }),
      },
      // The second entry differs only by the NUL: once cleaned both are one row, summed.
      {
        type: "client_report",
        payload: JSON.stringify({
          discarded_events: [
            { reason: `${tag}-reason${NUL}`, category: `error${NUL}`, quantity: 1 },
            { reason: `${tag}-reason`, category: "error", quantity: 2 },
          ],
        }),
      },
      { type: `${tag}-type${NUL}`, payload: "raw bytes" },
      {
        type: "span",
        headers: { item_count: 1, content_type: "application/vnd.sentry.items.span.v2+json" },
        payload: JSON.stringify({
          items: [
            {
              trace_id: traceId,
              span_id: hex(16),
              name: `${tag} span${NUL}`,
              status: `ok${NUL}`,
              start_timestamp: now() - 1,
              end_timestamp: now(),
              is_segment: true,
              attributes: { "sentry.op": { value: `op${NUL}`, type: "string" } },
            },
          ],
        }),
      },
    ];
  };

  it("stores every item type whose text carries NUL and lone surrogates, without them", async () => {
    const tag = `nul${hex(6)}`;
    await bench.enqueue(buildEnvelope({ event_id: newEventId() }, nulItems(tag)));
    await bench.drain();
    const db = bench.store.db;
    const noNul = (rows: Record<string, unknown>[]) => {
      expect(rows).toHaveLength(1);
      for (const value of Object.values(rows[0] ?? {})) if (typeof value === "string") expect(value).not.toMatch(/[\0\ud800-\udfff]/);
    };
    noNul(
      (await db.selectFrom("events").select(["title", "data"]).where("title", "like", `${tag}%`).execute()).map((r) => ({
        ...r,
        data: decodePayload(r.data),
      })),
    );
    noNul(await db.selectFrom("logs").select(["level", "body", "trace_id"]).where("body", "like", `${tag}%`).execute());
    noNul(await db.selectFrom("feedback").select(["name", "email", "comments", "event_id"]).where("name", "like", `${tag}%`).execute());
    noNul(
      await db
        .selectFrom("check_ins")
        .select(["monitor_slug", "check_in_id", "status", "environment"])
        .where("monitor_slug", "like", `${tag}%`)
        .execute(),
    );
    noNul(
      await db
        .selectFrom("session_counts")
        .select(["release", "environment"])
        .where("release", "like", `${tag}%`)
        .where("status", "=", "started")
        .execute(),
    );
    // A client report's reasons are the protocol's or counted invalid: none of the sender's text is stored.
    expect(await db.selectFrom("outcomes").select("reason").where("reason", "like", `${tag}%`).execute()).toEqual([]);
    noNul(await db.selectFrom("raw_items").select("type").where("type", "like", `${tag}%`).execute());
    noNul(await db.selectFrom("spans").select(["name", "op", "status"]).where("name", "like", `${tag}%`).execute());
    expect(await db.selectFrom("dead_letters").select("id").execute()).toHaveLength(0);
    expect(await bench.legitimateEventStored()).toBe(true);
  });

  /** How many envelopes were set aside for the bench project. */
  const deadLetters = async () =>
    (await bench.store.db.selectFrom("dead_letters").select("id").where("project_id", "=", bench.projectId).execute()).length;
  const eventStored = async (id: string) =>
    (await bench.store.db.selectFrom("events").select("id").where("event_id", "=", id).executeTakeFirst()) !== undefined;

  // Issue #38 point 2: on PostgreSQL each of these set aside the whole envelope, the error beside it too.
  const session = (payload: Record<string, unknown>): ItemSpec => ({ type: "session", payload: JSON.stringify(payload) });
  const bucket = (field: string, n: number): ItemSpec => ({
    type: "sessions",
    payload: JSON.stringify({
      attrs: { release: "r@1" },
      aggregates: [{ started: "2026-11-23T00:00:00Z", exited: 1, did: "u", [field]: n }],
    }),
  });
  const BAD_SESSIONS: [label: string, item: ItemSpec][] = [
    [
      "a NUL in attrs",
      session({ sid: hex(32), did: "u", init: true, status: "crashed", attrs: { release: `r@1${NUL}`, environment: `p${NUL}` } }),
    ],
    ...[1e20, 1e308, 18446744073709551616].flatMap((n) => [
      [`started = ${n}`, session({ sid: hex(32), init: true, status: "exited", started: n, attrs: { release: "r@1" } })] as [
        string,
        ItemSpec,
      ],
      ...["started", "exited", "errored", "crashed"].map((field) => [`aggregates ${field} = ${n}`, bucket(field, n)] as [string, ItemSpec]),
    ]),
  ];

  it.each(BAD_SESSIONS)("stores the error beside a session with %s, and sets nothing aside", async (_label, session) => {
    const before = await deadLetters();
    const id = newEventId();
    await bench.enqueue(buildEnvelope({ event_id: id }, [session, eventItem(id, "the error beside a bad session")]));
    await bench.drain();
    expect(await deadLetters()).toBe(before);
    expect(await eventStored(id)).toBe(true);
  });

  // Issue #38 point 1: a breadcrumb at 8.64e12 s or later made every page of its issue answer 500.
  it("stores a breadcrumb dated past year 9999 without its time, and the issue reads back", async () => {
    const id = newEventId();
    const crumbs = [
      { message: "far", timestamp: 8.65e12 },
      { message: "string", timestamp: "999999999999" },
      { message: "ok", timestamp: now() },
    ];
    await bench.enqueue(
      buildEnvelope({ event_id: id }, [eventItem(id, "far breadcrumb", { breadcrumbs: crumbs, fingerprint: ["far-crumb"] })]),
    );
    await bench.drain();
    const row = await bench.store.db.selectFrom("events").select(["data", "issue_id"]).where("event_id", "=", id).executeTakeFirstOrThrow();
    const event = JSON.parse(decodePayload(row.data)) as NormalizedEvent;
    expect(event.breadcrumbs?.values.map((c) => c.timestamp === undefined)).toEqual([true, true, false]);
    const latest = await bench.ctx.telemetry.issueEventAt(row.issue_id ?? -1, "latest");
    expect(latest && serializeEvent(latest, "p").id).toBe(id);
  });

  it("stores an attachment whose filename carries NUL, under the name without it", async () => {
    const writer = new AttachmentWriter(bench.ctx, bench.projectId, Date.now(), tempAttachmentSpool());
    const header: ItemHeader = {
      type: "attachment",
      knownType: "attachment",
      length: 3,
      itemCount: undefined,
      filename: `crash${NUL}.txt`,
      contentType: `text/plain${NUL}`,
      attachmentType: undefined,
      raw: {},
    };
    await writer.start(header);
    await writer.write(Buffer.from("abc"));
    writer.end();
    await writer.store();
    const [id] = writer.ids;
    const row = await bench.store.db
      .selectFrom("attachments")
      .select(["name", "content_type", "size"])
      .where("id", "=", id ?? -1)
      .executeTakeFirstOrThrow();
    expect(row).toEqual({ name: "crash.txt", content_type: "text/plain", size: 3 });
    await writer.discard(false);
  });
});
