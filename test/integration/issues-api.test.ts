import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createUser } from "../../src/core/accounts/create-user";
import type { Ctx } from "../../src/core/context";
import { digestBatch } from "../../src/core/digest/batch";
import { DEFAULT_ENVELOPE_LIMITS } from "../../src/core/envelope/index";
import { createOrganization } from "../../src/core/orgs/create-org";
import { createProject } from "../../src/core/projects/create-project";
import { createToken } from "../../src/core/tokens/tokens";
import { setLogLevel } from "../../src/server/log";
import { buildEnvelope, newEventId, transactionEnvelope } from "../support/envelopes";
import { startApiServer } from "../support/api-server";
import { sentryCli } from "../support/clients";
import { DIALECTS, openTestStore, testCtx, type TestStore } from "../support/stores";

describe.each(DIALECTS)("the issues web API on %s", (dialect) => {
  let store: TestStore;
  let ctx: Ctx;
  let api: { base: string; close(): Promise<void> };
  let base: string;
  let token: string;
  let otherToken: string;
  let projectId = 0;
  const traceId = newEventId();
  const ids = { a1: newEventId(), a2: newEventId(), b: newEventId() };

  /** Queues an envelope as the ingest path would and digests it. */
  async function ingest(body: Buffer) {
    await store.queue
      .insertInto("ingest_queue")
      .values({ project_id: projectId, key_id: 0, endpoint: "envelope", received_at: Date.now(), body })
      .execute();
    await digestBatch(ctx, { batchSize: 50, limits: DEFAULT_ENVELOPE_LIMITS });
  }

  const errorEvent = (eventId: string, type: string, value: string, extra: Record<string, unknown> = {}) =>
    buildEnvelope({ event_id: eventId }, [
      {
        type: "event",
        payload: JSON.stringify({
          event_id: eventId,
          platform: "node",
          level: "error",
          timestamp: Date.now() / 1000,
          release: "api@1.0.0",
          exception: {
            values: [{ type, value, stacktrace: { frames: [{ filename: "app.js", function: "handler", lineno: 10, in_app: true }] } }],
          },
          contexts: { trace: { trace_id: traceId, span_id: "a".repeat(16) } },
          user: { email: "ada@example.com" },
          tags: { region: "eu" },
          ...extra,
        }),
      },
    ]);

  beforeAll(async () => {
    setLogLevel("warn");
    store = await openTestStore(dialect);
    ctx = testCtx(store);
    await createUser({ ctx, input: { email: "owner@example.com", password: "password-123" } });
    await createUser({ ctx, input: { email: "outsider@example.com", password: "password-123" } });
    await createOrganization({ ctx, input: { slug: "acme", owner: "owner@example.com" } });
    await createOrganization({ ctx, input: { slug: "other", owner: "outsider@example.com" } });
    projectId = (await createProject({ ctx, input: { org: "acme", slug: "api", platform: "node" } })).project.id;
    ({ token } = await createToken({ ctx, input: { user: "owner@example.com" } }));
    ({ token: otherToken } = await createToken({ ctx, input: { user: "outsider@example.com" } }));
    await ingest(errorEvent(ids.a1, "TimeoutError", "upstream took 3100 ms"));
    await ingest(errorEvent(ids.a2, "TimeoutError", "upstream took 2900 ms", { tags: { region: "us" } }));
    // A numeric user id, as SDKs send it: the event list must still give sentry-cli a string.
    const numericUser = { id: 42, username: "ada", email: "ada@example.com", ip_address: "10.0.0.1" };
    await ingest(errorEvent(ids.b, "ValueError", "bad input", { environment: "staging", user: numericUser }));
    const tx = transactionEnvelope(newEventId(), "GET /orders");
    await ingest(Buffer.from(tx.toString("utf8").replace(/"trace_id":"[0-9a-f]{32}"/g, `"trace_id":"${traceId}"`)));
    api = await startApiServer(ctx);
    base = api.base;
  });

  afterAll(async () => {
    await api.close();
    await store.cleanup();
  });

  const call = async (path: string, init: { method?: string; body?: unknown; token?: string } = {}) => {
    const res = await fetch(base + path, {
      method: init.method ?? "GET",
      headers: { authorization: `Bearer ${init.token ?? token}`, "content-type": "application/json" },
      ...(init.body !== undefined ? { body: JSON.stringify(init.body) } : {}),
    });
    expect(res.headers.get("content-type")).toBe("application/json");
    return { status: res.status, body: (await res.json()) as never, headers: res.headers };
  };

  it("lists a project's unresolved issues with Sentry's fields and a Link header", async () => {
    const { status, body, headers } = await call("/api/0/projects/acme/api/issues/");
    expect(status).toBe(200);
    const issues = body as Record<string, unknown>[];
    expect(issues.map((i) => i.title).sort()).toEqual(["TimeoutError: upstream took 2900 ms", "ValueError: bad input"].sort());
    const timeout = issues.find((i) => String(i.title).startsWith("TimeoutError"))!;
    expect(timeout).toMatchObject({
      shortId: "API-1",
      culprit: "app.js in handler",
      count: "2",
      userCount: 1,
      status: "unresolved",
      level: "error",
      metadata: { type: "TimeoutError" },
    });
    expect(typeof timeout.firstSeen).toBe("string");
    expect(timeout).not.toHaveProperty("lifetime");
    const detail = (await call("/api/0/organizations/acme/issues/API-1/")).body as Record<string, unknown>;
    expect(detail).toMatchObject({ isUnhandled: false, lifetime: { count: "2", userCount: 1 }, userReportCount: 0, seenBy: [] });
    expect(headers.get("link")).toContain('rel="next"; results="false"');
  });

  it("searches with the same syntax as the page", async () => {
    const { body } = await call(`/api/0/projects/acme/api/issues/?query=${encodeURIComponent("is:unresolved region:us")}`);
    expect((body as { title: string }[]).map((i) => i.title)).toEqual(["TimeoutError: upstream took 2900 ms"]);
    const bad = await call(`/api/0/projects/acme/api/issues/?query=${encodeURIComponent("is:nope")}`);
    expect(bad.status).toBe(400);
    expect((bad.body as { detail: string }).detail).toMatch(/^invalid search query: Unknown status "nope"/);
    const unknown = await call(`/api/0/projects/acme/api/issues/?query=${encodeURIComponent("bogus:field")}`);
    expect(unknown.status).toBe(400);
    expect((unknown.body as { detail: string }).detail).toMatch(/^invalid search query: Unknown search key "bogus"/);
    const typed = await call(`/api/0/projects/acme/api/issues/?query=${encodeURIComponent("error.type:TimeoutError")}`);
    expect((typed.body as { title: string }[]).map((i) => i.title)).toEqual(["TimeoutError: upstream took 2900 ms"]);
  });

  it("reads and resolves an issue by id and by short id, and rejects an unknown status", async () => {
    const { body } = await call("/api/0/organizations/acme/issues/API-1/");
    const id = (body as { id: string }).id;
    const put = await call(`/api/0/organizations/acme/issues/${id}/`, { method: "PUT", body: { status: "resolved" } });
    expect(put.status).toBe(200);
    expect(put.body).toMatchObject({ id, status: "resolved" });
    const listed = await call(`/api/0/projects/acme/api/issues/?query=is:resolved`);
    expect((listed.body as { id: string }[]).map((i) => i.id)).toEqual([id]);
    const bad = await call(`/api/0/organizations/acme/issues/${id}/`, { method: "PUT", body: { status: "fixed" } });
    expect(bad.status).toBe(400);
    const again = await call(`/api/0/organizations/acme/issues/${id}/`, { method: "PUT", body: { status: "unresolved" } });
    expect(again.body).toMatchObject({ status: "unresolved" });
  });

  /** The URL path and query, and the cursor, of the `rel` page in a `Link` header (Sentry's shape). */
  function linkTo(link: string | null, rel: "previous" | "next"): { path: string; results: boolean; cursor: string } {
    const m = new RegExp(`<([^>]*)>; rel="${rel}"; results="(true|false)"; cursor="([^"]*)"`).exec(link ?? "");
    if (!m) throw new Error(`no ${rel} link in ${link}`);
    const url = new URL(m[1]!);
    return { path: url.pathname + url.search, results: m[2] === "true", cursor: m[3]! };
  }

  it("pages issues forward and back by the Link header, keeping the query and the limit", async () => {
    const q = `?query=${encodeURIComponent("is:unresolved")}&limit=1&statsPeriod=24h`;
    const first = await call(`/api/0/projects/acme/api/issues/${q}`);
    expect(linkTo(first.headers.get("link"), "previous")).toMatchObject({ results: false, cursor: "" });
    const next = linkTo(first.headers.get("link"), "next");
    expect(next.results).toBe(true);
    const params = new URL(next.path, "http://x").searchParams;
    expect([params.get("query"), params.get("limit"), params.get("statsPeriod"), params.get("cursor")]).toEqual([
      "is:unresolved",
      "1",
      "24h",
      next.cursor,
    ]);
    const second = await call(next.path);
    const [one, two] = [first.body as { id: string }[], second.body as { id: string }[]];
    expect(two).toHaveLength(1);
    expect(two[0]!.id).not.toBe(one[0]!.id);
    expect(linkTo(second.headers.get("link"), "next").results).toBe(false);
    const previous = linkTo(second.headers.get("link"), "previous");
    expect(previous.results).toBe(true);
    const back = await call(previous.path);
    expect((back.body as { id: string }[]).map((i) => i.id)).toEqual([one[0]!.id]);
  });

  it("pages an issue's events by the Link header", async () => {
    const first = await call("/api/0/organizations/acme/issues/API-1/events/?limit=1");
    const next = linkTo(first.headers.get("link"), "next");
    expect(next.results).toBe(true);
    const second = await call(next.path);
    const seen = [...(first.body as { id: string }[]), ...(second.body as { id: string }[])].map((e) => e.id);
    expect(seen.sort()).toEqual([ids.a1, ids.a2].sort());
    expect(linkTo(second.headers.get("link"), "next").results).toBe(false);
    const back = await call(linkTo(second.headers.get("link"), "previous").path);
    expect(back.body).toEqual(first.body);
    expect((await call("/api/0/organizations/acme/issues/API-1/events/?cursor=bogus")).status).toBe(400);
  });

  it("lists an issue's events, the latest first, and serves one event with its entries", async () => {
    const events = await call("/api/0/organizations/acme/issues/API-1/events/");
    expect((events.body as { id: string }[]).map((e) => e.id).sort()).toEqual([ids.a1, ids.a2].sort());
    const latest = await call("/api/0/organizations/acme/issues/API-1/events/latest/");
    expect((latest.body as { id: string }).id).toBe(ids.a2);
    const one = await call(`/api/0/projects/acme/api/events/${ids.b}/`);
    expect(one.body).toMatchObject({ id: ids.b, title: "ValueError: bad input", release: { version: "api@1.0.0" } });
    expect((one.body as { entries: { type: string }[] }).entries.map((e) => e.type)).toContain("exception");
  });

  it("returns a trace's transactions with spans and the errors linked to it", async () => {
    const { status, body } = await call(`/api/0/organizations/acme/trace/${traceId}/`);
    expect(status).toBe(200);
    const trace = body as { transactions: { transaction: string; spans: unknown[] }[]; errors: { event_id: string }[] };
    expect(trace.transactions.map((t) => t.transaction)).toEqual(["GET /orders"]);
    expect(trace.transactions[0]!.spans).toHaveLength(1);
    expect(trace.errors.map((e) => e.event_id).sort()).toEqual([ids.a1, ids.a2, ids.b].sort());
  });

  it("downloads an event's attachment chunk by chunk, as a download, never rendered", async () => {
    const data = Buffer.alloc(2.5 * 1024 * 1024, 7);
    const row = await store.db
      .insertInto("attachments")
      .values({
        project_id: projectId,
        event_id: ids.b,
        name: "dump<script>.txt",
        content_type: "text/html",
        attachment_type: "event.attachment",
        size: data.length,
        complete: 1,
        created_at: Date.now(),
      })
      .returning("id")
      .executeTakeFirstOrThrow();
    const MiB = 1024 * 1024;
    for (let seq = 0; seq * MiB < data.length; seq++) {
      await store.db
        .insertInto("attachment_chunks")
        .values({ attachment_id: row.id, seq, data: data.subarray(seq * MiB, (seq + 1) * MiB) })
        .execute();
    }
    const res = await fetch(`${base}/api/0/projects/acme/api/events/${ids.b}/attachments/${row.id}/?download=1`, {
      headers: { authorization: `Bearer ${token}` },
    });
    expect(res.status).toBe(200);
    expect(res.headers.get("content-type")).toBe("application/octet-stream");
    expect(res.headers.get("content-disposition")).toBe('attachment; filename="dump_script_.txt"');
    expect(Buffer.from(await res.arrayBuffer()).equals(data)).toBe(true);
    const other = await fetch(`${base}/api/0/projects/acme/api/events/${ids.b}/attachments/${row.id}/`, {
      headers: { authorization: `Bearer ${otherToken}` },
    });
    expect(other.status).toBe(404);
  });

  it("searches by trace through the events, and keeps the trace out of the issue's tag index", async () => {
    const otherTrace = newEventId();
    await ingest(
      errorEvent(newEventId(), "RangeError", "index out of range", {
        contexts: { trace: { trace_id: otherTrace, span_id: "b".repeat(16) } },
      }),
    );
    const titles = async (query: string) =>
      ((await call(`/api/0/projects/acme/api/issues/?query=${encodeURIComponent(query)}`)).body as { title: string }[])
        .map((i) => i.title)
        .sort();
    expect(await titles(`trace:${otherTrace}`)).toEqual(["RangeError: index out of range"]);
    expect(await titles(`trace:${otherTrace.toUpperCase()}`)).toEqual(["RangeError: index out of range"]);
    expect(await titles(`trace:${traceId.slice(0, 12)}*`)).not.toContain("RangeError: index out of range");
    expect(await titles(`trace:${traceId.slice(0, 12)}*`)).toContain("ValueError: bad input");
    expect(await titles(`!trace:${otherTrace}`)).not.toContain("RangeError: index out of range");
    expect(await titles("has:trace")).toContain("RangeError: index out of range");
    const traceRows = await store.db.selectFrom("issue_tags").select("issue_id").where("key", "=", "trace").execute();
    expect(traceRows).toEqual([]);
    const regionRows = await store.db.selectFrom("issue_tags").select("issue_id").where("key", "=", "region").execute();
    expect(regionRows.length).toBeGreaterThan(0);
  });

  it("lists a project's events newest first, as `sentry-cli events list` reads and prints them", async () => {
    const { status, body, headers } = await call("/api/0/projects/acme/api/events/?cursor=");
    expect(status).toBe(200);
    const events = body as { eventID: string; dateCreated: string; title: string; user: Record<string, unknown>; tags: unknown[] }[];
    // Besides ours, the RangeError the trace search test sent.
    expect(events).toHaveLength(4);
    expect(events.map((e) => e.eventID).filter((id) => Object.values(ids).includes(id))).toEqual([ids.b, ids.a2, ids.a1]);
    expect(events.find((e) => e.eventID === ids.b)).toMatchObject({
      title: "ValueError: bad input",
      user: { id: "42", username: "ada", ip_address: "10.0.0.1" },
    });
    expect(events[0]!.tags).toContainEqual({ key: "region", value: "eu" });
    expect(Date.parse(events[0]!.dateCreated)).toBeGreaterThan(0);
    expect(linkTo(headers.get("link"), "next").results).toBe(false);
    const first = await call("/api/0/projects/acme/api/events/?limit=2");
    const rest = await call(linkTo(first.headers.get("link"), "next").path);
    expect([...(first.body as never[]), ...(rest.body as never[])]).toEqual(events);
    const cli = await sentryCli(base, token, ["events", "list", "--org", "acme", "--project", "api", "--show-user", "--show-tags"]);
    expect(cli.code, cli.out).toBe(0);
    // One row per event, in the API's order, each id printed as a UUID.
    const printed = [...cli.out.matchAll(/^\| ([0-9a-f-]{36}) \|/gm)].map((m) => m[1]!.replaceAll("-", ""));
    expect(printed).toEqual(events.map((e) => e.eventID));
    expect(cli.out).toContain("ID: 42");
    expect(cli.out).toContain("region: us");
    expect((await sentryCli(base, token, ["events", "list", "--org", "acme", "--project", "nope"])).code).not.toBe(0);
  });

  it("lists the organization's issues by project, environment, time range, sort and limit", async () => {
    const titles = async (q: string) => {
      const r = await call(`/api/0/organizations/acme/issues/?${q}`);
      expect(r.status, JSON.stringify(r.body)).toBe(200);
      return (r.body as { title: string }[]).map((i) => i.title);
    };
    const all = ["RangeError: index out of range", "TimeoutError: upstream took 2900 ms", "ValueError: bad input"];
    expect((await titles("")).sort()).toEqual(all);
    expect((await titles(`project=-1&statsPeriod=24h`)).sort()).toEqual(all);
    expect((await titles(`project=${projectId}&project=${projectId}&query=`)).sort()).toEqual(all);
    expect(await titles("environment=staging")).toEqual(["ValueError: bad input"]);
    expect(await titles("environment=nowhere&environment=staging")).toEqual(["ValueError: bad input"]);
    expect(await titles("start=2001-01-01T00:00:00&end=2001-01-02T00:00:00")).toEqual([]);
    expect(await titles(`start=2001-01-01T00:00:00&end=${new Date(Date.now() + 60_000).toISOString()}`)).toHaveLength(3);
    expect(await titles(`query=${encodeURIComponent("ValueError")}`)).toEqual(["ValueError: bad input"]);
    const page = await call("/api/0/organizations/acme/issues/?sort=freq&limit=1");
    expect((page.body as { title: string; count: string }[]).map((i) => [i.title, i.count])).toEqual([[all[1], "2"]]);
    expect(linkTo(page.headers.get("link"), "next").path).toContain("sort=freq&limit=1");
    const next = await titles(linkTo(page.headers.get("link"), "next").path.split("?")[1] ?? "");
    expect(next).toHaveLength(1);
    expect(next).not.toContain(all[1]);
    for (const bad of ["project=999999", "project=abc", "project=1%00"])
      expect((await call(`/api/0/organizations/acme/issues/?${bad}`)).status).toBe(404);
    for (const bad of ["statsPeriod=forever", "start=2001-01-01", "sort=random", "start=soon&end=later"])
      expect((await call(`/api/0/organizations/acme/issues/?${bad}`)).status).toBe(400);
    expect((await call("/api/0/organizations/acme/issues/", { token: otherToken })).status).toBe(404);
  });

  it("finds where an event id and a short id are, and nothing elsewhere", async () => {
    const { status, body } = await call(`/api/0/organizations/acme/eventids/${ids.b.toUpperCase()}/`);
    expect(status).toBe(200);
    const found = body as { groupId: string; event: { eventID: string } };
    expect(found).toMatchObject({ organizationSlug: "acme", projectSlug: "api", eventId: ids.b, event: { eventID: ids.b } });
    const short = await call("/api/0/organizations/acme/shortids/api-1/");
    expect(short.body).toMatchObject({ organizationSlug: "acme", projectSlug: "api", shortId: "API-1", group: { shortId: "API-1" } });
    const group = (short.body as { groupId: string }).groupId;
    expect((await call(`/api/0/organizations/acme/issues/${group}/`)).body).toMatchObject({ shortId: "API-1" });
    for (const path of [`eventids/${"0".repeat(32)}`, "eventids/nothex", "shortids/API-ZZZZ", "shortids/nodash"])
      expect((await call(`/api/0/organizations/acme/${path}/`)).status).toBe(404);
    expect((await call(`/api/0/organizations/acme/eventids/${ids.b}/`, { token: otherToken })).status).toBe(404);
    expect((await call(`/api/0/organizations/other/shortids/API-1/`, { token: otherToken })).status).toBe(404);
  });

  it("answers the legacy /api/0/issues/{id}/ paths as the organization routes, for that organization's readers only", async () => {
    const { body } = await call("/api/0/organizations/acme/issues/API-1/");
    const id = (body as { id: string }).id;
    for (const tail of ["", "events/", "events/latest/", "events/oldest/"]) {
      const legacy = await call(`/api/0/issues/${id}/${tail}`);
      expect(legacy.status).toBe(200);
      expect(legacy.body).toEqual((await call(`/api/0/organizations/acme/issues/${id}/${tail}`)).body);
      const hidden = await call(`/api/0/issues/${id}/${tail}`, { token: otherToken });
      expect(hidden).toMatchObject({ status: 404, body: { detail: `issue ${id} does not exist` } });
    }
    for (const ref of ["999999", "API-1", "1%00", "9".repeat(30)]) expect((await call(`/api/0/issues/${ref}/`)).status).toBe(404);
    expect((await call(`/api/0/issues/${id}/`, { method: "PUT", body: { status: "resolved" } })).status).toBe(404);
    expect((await call(`/api/0/issues/${id}/`, { token: "nope" })).status).toBe(401);
  });

  it("answers 404 for another organization's issues and events, and 401 without a valid token", async () => {
    const { body } = await call("/api/0/organizations/acme/issues/API-1/");
    const id = (body as { id: string }).id;
    expect((await call(`/api/0/organizations/acme/issues/${id}/`, { token: otherToken })).status).toBe(404);
    expect((await call(`/api/0/organizations/other/issues/${id}/`, { token: otherToken })).status).toBe(404);
    expect(
      (await call(`/api/0/organizations/acme/issues/${id}/`, { method: "PUT", token: otherToken, body: { status: "resolved" } })).status,
    ).toBe(404);
    expect((await call(`/api/0/projects/acme/api/events/${ids.b}/`, { token: otherToken })).status).toBe(404);
    expect((await call(`/api/0/projects/acme/api/issues/`, { token: "tlt_wrong" })).status).toBe(401);
    expect((await call(`/api/0/organizations/acme/issues/${id}/events/latest/`, { token: "nope" })).status).toBe(401);
  });

  it("serves an event in Sentry's shape: camelCase frames, entries, built-in tags, the issue's culprit and neighbours", async () => {
    const first = (await call(`/api/0/projects/acme/api/events/${ids.a1}/`)).body as Record<string, unknown>;
    expect(first).toMatchObject({ culprit: "app.js in handler", previousEventID: null, nextEventID: ids.a2 });
    const second = (await call(`/api/0/projects/acme/api/events/${ids.a2}/`)).body as Record<string, unknown>;
    expect(second).toMatchObject({ previousEventID: ids.a1, nextEventID: null });
    expect(first.tags).toEqual(
      expect.arrayContaining([
        { key: "level", value: "error" },
        { key: "release", value: "api@1.0.0" },
        { key: "region", value: "eu" },
      ]),
    );
    const rich = newEventId();
    const frame = { filename: "app.js", abs_path: "/srv/app.js", function: "charge", module: "billing", lineno: 7, colno: 3, in_app: true };
    const context = { pre_context: ["a", "b"], context_line: "boom()", post_context: ["c"], vars: { n: 1 } };
    await ingest(
      errorEvent(rich, "ChargeError", "card declined", {
        environment: "prod",
        culprit: "billing.charge",
        message: "charging failed",
        exception: {
          values: [
            {
              type: "ChargeError",
              value: "card declined",
              mechanism: { type: "onunhandledrejection", handled: false },
              stacktrace: { frames: [{ ...frame, ...context }] },
            },
          ],
        },
        breadcrumbs: { values: [{ timestamp: 1_700_000_000, category: "http", message: "POST /pay" }] },
        request: { url: "https://shop.example/pay?x=1", method: "POST", headers: { Accept: "text/html" } },
      }),
    );
    const body = (await call(`/api/0/projects/acme/api/events/${rich}/`)).body as { entries: { type: string; data: never }[] } & Record<
      string,
      unknown
    >;
    expect(body).toMatchObject({ culprit: "billing.charge", environment: "prod", previousEventID: null, nextEventID: null });
    expect(body.tags).toEqual(
      expect.arrayContaining([
        { key: "environment", value: "prod" },
        { key: "url", value: "https://shop.example/pay" },
      ]),
    );
    const entry = (type: string) => body.entries.find((e) => e.type === type)?.data as Record<string, unknown> | undefined;
    const values = entry("exception")?.values as { stacktrace: { frames: unknown[] } }[];
    expect(values[0]!.stacktrace.frames[0]).toMatchObject({
      filename: "app.js",
      absPath: "/srv/app.js",
      function: "charge",
      module: "billing",
      lineNo: 7,
      colNo: 3,
      inApp: true,
      vars: { n: 1 },
      context: [
        [5, "a"],
        [6, "b"],
        [7, "boom()"],
        [8, "c"],
      ],
    });
    const issue = (await call(`/api/0/organizations/acme/issues/${String(body.groupID)}/`)).body;
    expect(issue).toMatchObject({ isUnhandled: true });
    expect(entry("message")).toMatchObject({ formatted: "charging failed" });
    expect(entry("breadcrumbs")).toMatchObject({
      values: [{ category: "http", message: "POST /pay", timestamp: "2023-11-14T22:13:20.000Z" }],
    });
    expect(entry("request")).toMatchObject({
      url: "https://shop.example/pay",
      method: "POST",
      query: [["x", "1"]],
      headers: [["Accept", "text/html"]],
    });
  });

  it("gives projects their teams, environments, features and status, in the list and the details alike", async () => {
    const listed = ((await call("/api/0/organizations/acme/projects/")).body as Record<string, unknown>[]).find((p) => p.slug === "api");
    const details = (await call("/api/0/projects/acme/api/")).body as Record<string, unknown>;
    for (const project of [listed, details]) {
      expect(project).toMatchObject({ status: "active", features: [], environments: expect.arrayContaining(["staging"]) });
      const { team, teams } = project as { team: unknown; teams: { id: string; slug: string }[] };
      expect(teams.length).toBeGreaterThan(0);
      expect(typeof teams[0]!.id).toBe("string");
      expect(team).toEqual(teams[0]);
    }
  });
});
