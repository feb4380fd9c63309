import { describe, expect, it } from "vitest";
import { MAX_CHARS } from "./limits";
import { normalizeEvent, type NormalizeOptions, type NormalizeResult } from "./normalize-event";
import {
  browserEvent,
  nodeHttpEvent,
  pythonLogEvent,
  pythonWsgiEvent,
  RECEIVED_AT,
  RECEIVED_SECONDS,
  transactionEvent,
} from "../../../test/support/sdk-events";
import type { NormalizedEvent } from "./types";

const OPTS: NormalizeOptions = { receivedAt: RECEIVED_AT };

function ok(result: NormalizeResult): Extract<NormalizeResult, { ok: true }> {
  if (!result.ok) throw new Error(`expected ok, got: ${result.reason}`);
  return result;
}

function normalized(raw: unknown, opts: Partial<NormalizeOptions> = {}): NormalizedEvent {
  return ok(normalizeEvent(raw, { ...OPTS, ...opts })).event;
}

describe("normalizeEvent with @sentry/node 11 payloads", () => {
  it("keeps the exception, frames, release, contexts and SDK as sent", () => {
    const event = normalized(nodeHttpEvent());
    expect(event).toMatchObject({
      event_id: "b75e73bdd6f34fb0aba4b1edb3e801ba",
      type: "event",
      platform: "node",
      level: "error",
      release: "shop@1.4.2",
      environment: "production",
      server_name: "vm",
      transaction: "POST /checkout",
      timestamp: 1795331379.614,
      received: RECEIVED_SECONDS,
      sdk: { name: "sentry.javascript.node", version: "11.1.0", packages: [{ name: "npm:@sentry/node", version: "11.1.0" }] },
      contexts: { trace: { trace_id: "d1263b091139478e97fc3508a8db4981", span_id: "b3879fdd786f81e6" }, runtime: { name: "node" } },
    });
    const [exception] = event.exception?.values ?? [];
    expect(exception).toMatchObject({ type: "SyntaxError", mechanism: { type: "generic", handled: true } });
    expect(exception?.stacktrace?.frames[1]).toEqual({
      filename: "/srv/shop/server.mjs",
      abs_path: "/srv/shop/server.mjs",
      module: "server",
      function: "Server.?",
      lineno: 8,
      colno: 14,
      in_app: true,
      pre_context: [
        "const server = http.createServer((req, res) => {",
        '  Sentry.addBreadcrumb({ message: "loading cart", level: "info", category: "app" });',
      ],
      context_line: '  try { JSON.parse("{oops"); } catch (e) { Sentry.captureException(e); }',
      post_context: ['  res.end("ok");', "});"],
    });
  });

  it("turns tags into pairs and breadcrumbs into a values list with defaults", () => {
    const event = normalized(nodeHttpEvent());
    expect(event.tags).toEqual([["feature", "checkout"]]);
    expect(event.breadcrumbs).toEqual({
      values: [{ timestamp: 1795331379.598, type: "default", level: "info", category: "app", message: "loading cart" }],
    });
  });

  it("splits the URL's query, title-cases headers and moves the Cookie header to cookies", () => {
    const request = normalized(nodeHttpEvent(), { scrub: false }).request;
    expect(request?.url).toBe("http://127.0.0.1:35741/checkout");
    expect(request?.method).toBe("POST");
    expect(request?.query_string).toEqual([
      ["step", "2"],
      ["token", "abc123"],
    ]);
    expect(request?.cookies).toEqual([
      ["sessionid", "s3cr3t"],
      ["theme", "dark"],
    ]);
    const names = request?.headers?.map(([name]) => name);
    expect(names).toContain("Content-Type");
    expect(names).toContain("User-Agent");
    expect(names).not.toContain("Cookie");
    expect(request?.data).toEqual({ card: "4111 1111 1111 1111", password: "pw", qty: 2 });
    expect(request?.inferred_content_type).toBe("application/json");
  });

  it("scrubs the request, extra and data by default and counts what it replaced", () => {
    const result = ok(normalizeEvent(nodeHttpEvent(), OPTS));
    const { request, extra } = result.event;
    expect(request?.query_string).toContainEqual(["token", "[Filtered]"]);
    expect(request?.cookies).toEqual([
      ["sessionid", "[Filtered]"],
      ["theme", "dark"],
    ]);
    expect(request?.headers).toContainEqual(["Authorization", "[Filtered]"]);
    expect(request?.data).toEqual({ card: "[Filtered]", password: "[Filtered]", qty: 2 });
    expect(extra).toEqual({ order: { id: 1234, password: "[Filtered]" } });
    expect(result.scrubbed).toBeGreaterThanOrEqual(6);
  });
});

describe("normalizeEvent with @sentry/browser 11 payloads", () => {
  it("derives the frame's file name from its URL and keeps the absolute URL", () => {
    const frame = normalized(browserEvent()).exception?.values[0]?.stacktrace?.frames[0];
    expect(frame).toMatchObject({
      filename: "/bundle.js",
      abs_path: "http://localhost:44541/bundle.js",
      lineno: 7197,
      colno: 14,
      in_app: true,
    });
  });

  it("maps level names and keeps breadcrumb data", () => {
    const crumbs = normalized(browserEvent()).breadcrumbs?.values ?? [];
    expect(crumbs).toHaveLength(3);
    expect(crumbs[1]).toMatchObject({ level: "warning", category: "console", data: { arguments: ["about to buy", { sku: "X-1" }] } });
  });

  it("scrubs a token in a breadcrumb URL", () => {
    const crumb = normalized(browserEvent()).breadcrumbs?.values[2];
    expect(crumb?.data?.url).toBe("https://api.example.com/cart?access_token=[Filtered]");
  });

  it("infers the user's IP from the connection when the SDK asks for it", () => {
    const event = normalized(browserEvent(), { clientIp: "203.0.113.7" });
    expect(event.user).toEqual({ id: "u-9", email: "grace@example.com", ip_address: "203.0.113.7" });
  });

  it("does not infer an IP when storeIpAddresses is false", () => {
    const event = normalized(browserEvent(), { clientIp: "203.0.113.7", scrub: { storeIpAddresses: false } });
    expect(event.user?.ip_address).toBeUndefined();
  });
});

describe("normalizeEvent with sentry-python payloads", () => {
  it("formats a logging message from its %-style params and keeps the template", () => {
    const event = normalized(pythonLogEvent());
    expect(event.logentry).toEqual({
      message: "charging %s for %d items",
      formatted: "charging acct-7 for 3 items",
      params: ["acct-7", 3],
    });
    expect(event.logger).toBe("billing");
    expect(event.timestamp).toBeCloseTo(1795331359.785305, 5);
  });

  it("reads RFC 3339 timestamps with microseconds, drops null modules and SDK _meta", () => {
    const event = normalized(pythonWsgiEvent());
    expect(event.timestamp).toBeCloseTo(1795331359.838516, 5);
    expect(event.breadcrumbs?.values[0]?.timestamp).toBeCloseTo(1795331359.838319, 5);
    expect(event.exception?.values[0]?.module).toBeUndefined();
    expect(event.other).toBeUndefined();
    expect(event.contexts?.trace).toEqual({
      trace_id: "fd53dd1dd4ba4a84b75ff9de7a9c00f7",
      span_id: "8304647c3df23d41",
      op: "http.server",
      description: null,
    });
  });

  it("scrubs frame vars, cookies, headers, query and body of a WSGI request", () => {
    const event = normalized(pythonWsgiEvent());
    const frames = event.exception?.values[0]?.stacktrace?.frames ?? [];
    expect(frames[1]?.vars).toEqual({ account: "'acct-7'", api_key: "[Filtered]", amount: "10" });
    expect(frames[0]?.vars?.environ).toMatchObject({
      HTTP_COOKIE: "'sessionid=[Filtered]; csrftoken=[Filtered]; lang=en'",
      HTTP_AUTHORIZATION: "[Filtered]",
    });
    const request = event.request;
    expect(request?.cookies).toEqual([
      ["sessionid", "[Filtered]"],
      ["csrftoken", "[Filtered]"],
      ["lang", "en"],
    ]);
    expect(request?.headers).toContainEqual(["Authorization", "[Filtered]"]);
    expect(request?.query_string).toEqual([
      ["debug", "1"],
      ["access_token", "[Filtered]"],
    ]);
    expect(request?.data).toEqual({ card_number: "[Filtered]", password: "[Filtered]", note: "ship fast" });
  });

  it("keeps the user's IP by default and removes every client address when storeIpAddresses is false", () => {
    expect(normalized(pythonWsgiEvent()).user?.ip_address).toBe("198.51.100.23");
    const event = normalized(pythonWsgiEvent(), { scrub: { storeIpAddresses: false } });
    expect(event.user?.ip_address).toBeUndefined();
    expect(event.request?.env).toEqual({ SERVER_NAME: "127.0.0.1", SERVER_PORT: "80" });
    expect(event.request?.headers?.map(([name]) => name)).not.toContain("X-Forwarded-For");
  });

  it("backfills the user's IP from REMOTE_ADDR", () => {
    const raw = pythonWsgiEvent();
    delete raw.user;
    expect(normalized(raw).user).toEqual({ ip_address: "198.51.100.23" });
  });
});

describe("normalizeEvent caps", () => {
  it("keeps the newest 100 of 150 breadcrumbs and counts the 50 dropped", () => {
    const raw = nodeHttpEvent();
    raw.breadcrumbs = Array.from({ length: 150 }, (_, i) => ({ message: `crumb ${i}`, timestamp: RECEIVED_SECONDS - 150 + i }));
    const result = ok(normalizeEvent(raw, OPTS));
    const values = result.event.breadcrumbs?.values ?? [];
    expect(values).toHaveLength(100);
    expect(values[0]?.message).toBe("crumb 50");
    expect(values[99]?.message).toBe("crumb 149");
    expect(result.dropped.breadcrumbs).toBe(50);
  });

  it("keeps the first 1000 of 1500 spans and counts the 500 dropped", () => {
    const result = ok(normalizeEvent(transactionEvent(1500), OPTS));
    expect(result.event.type).toBe("transaction");
    expect(result.event.spans).toHaveLength(1000);
    expect(result.event.spans?.[999]?.description).toBe("SELECT * FROM orders WHERE id = 999");
    expect(result.dropped).toEqual({ spans: 500, invalidSpans: 0, breadcrumbs: 0, spanTimestamps: 0 });
  });

  it("normalizes a transaction's spans, level, source and measurement names", () => {
    const event = normalized(transactionEvent(2));
    expect(event).toMatchObject({
      level: "info",
      transaction_info: { source: "route" },
      measurements: { lcp: { value: 1234.5, unit: "millisecond" } },
    });
    expect(event.start_timestamp).toBe(RECEIVED_SECONDS - 10);
    expect(event.spans?.[0]).toMatchObject({
      span_id: "1000000000000000",
      op: "db.query",
      status: "ok",
      data: { "db.system": "postgresql" },
    });
  });

  it("counts spans without an id or an end as invalid, apart from those over the cap", () => {
    const raw = transactionEvent(3);
    const spans = raw.spans as Array<Record<string, unknown>>;
    delete spans[0]?.span_id;
    delete spans[1]?.timestamp;
    const result = ok(normalizeEvent(raw, OPTS));
    expect(result.event.spans).toHaveLength(1);
    expect(result.dropped).toMatchObject({ spans: 0, invalidSpans: 2 });
  });

  it("drops transaction spans timed before 2000 or over a minute outside the transaction, and counts them", () => {
    const raw = transactionEvent(4);
    const spans = raw.spans as Array<Record<string, number>>;
    Object.assign(spans[0]!, { start_timestamp: 1000, timestamp: 1001 });
    Object.assign(spans[1]!, { start_timestamp: RECEIVED_SECONDS - 10, timestamp: RECEIVED_SECONDS + 3600 });
    const result = ok(normalizeEvent(raw, OPTS));
    expect(result.event.spans?.map((s) => s.span_id)).toEqual(["1000000000000002", "1000000000000003"]);
    expect(result.dropped).toMatchObject({ spans: 0, spanTimestamps: 2 });
    expect(result.event.start_timestamp).toBe(RECEIVED_SECONDS - 10);
  });

  it("ignores spans on an error event", () => {
    const raw = nodeHttpEvent();
    raw.spans = transactionEvent(5).spans;
    const result = ok(normalizeEvent(raw, OPTS));
    expect(result.event.spans).toBeUndefined();
    expect(result.dropped.spans).toBe(0);
  });

  it("cuts over-long strings to their limit with an ellipsis", () => {
    const raw = nodeHttpEvent();
    raw.message = "m".repeat(20_000);
    raw.transaction = "t".repeat(500);
    raw.logger = "l".repeat(100);
    raw.environment = "e".repeat(100);
    raw.release = "r".repeat(300);
    raw.tags = { ["k".repeat(300)]: "v".repeat(300) };
    const event = normalized(raw);
    expect(event.logentry?.formatted).toHaveLength(MAX_CHARS.message);
    expect(event.logentry?.formatted.endsWith("…")).toBe(true);
    expect(event.transaction).toBe(`${"t".repeat(199)}…`);
    expect(event.logger).toHaveLength(64);
    expect(event.environment).toHaveLength(64);
    expect(event.release).toHaveLength(200);
    expect(event.tags?.[0]?.[0]).toHaveLength(200);
    expect(event.tags?.[0]?.[1]).toBe(`${"v".repeat(199)}…`);
  });

  it("never cuts a string inside a surrogate pair", () => {
    const raw = nodeHttpEvent();
    raw.transaction = `${"a".repeat(198)}😀😀`;
    expect(normalized(raw).transaction).toBe(`${"a".repeat(198)}…`);
  });
});

describe("normalizeEvent fields", () => {
  it("maps warn to warning, critical to fatal and an unknown level to error", () => {
    expect(normalized({ level: "warn" }).level).toBe("warning");
    expect(normalized({ level: "CRITICAL" }).level).toBe("fatal");
    expect(normalized({ level: "log" }).level).toBe("info");
    const result = ok(normalizeEvent({ level: "loud" }, OPTS));
    expect(result.event.level).toBe("error");
    expect(result.warnings).toContain("level: unknown; default used");
  });

  it("accepts a dashed UUID event id and lowercases it", () => {
    expect(normalized({ event_id: "B75E73BD-D6F3-4FB0-ABA4-B1EDB3E801BA" }).event_id).toBe("b75e73bdd6f34fb0aba4b1edb3e801ba");
  });

  it("uses the envelope's event id, else generates one, when the payload's is invalid", () => {
    expect(normalized({ event_id: "nope" }, { eventId: "0123456789abcdef0123456789abcdef" }).event_id).toBe(
      "0123456789abcdef0123456789abcdef",
    );
    expect(normalized({}).event_id).toMatch(/^[0-9a-f]{32}$/);
  });

  it("accepts tags as a pair list, stringifies scalars and keeps a repeated key's first value", () => {
    const result = ok(normalizeEvent({ tags: [["a", "1"], ["b", 2], ["a", "3"], ["c", { x: 1 }], ["", "v"], "junk"] }, OPTS));
    expect(result.event.tags).toEqual([
      ["a", "1"],
      ["b", "2"],
    ]);
    expect(result.warnings).toContain("tags: 4 invalid, repeated or excess tags dropped");
  });

  it("folds a plain message string into logentry", () => {
    expect(normalized({ message: "hello" }).logentry).toEqual({ formatted: "hello" });
  });

  it("prefers the SDK's formatted message over formatting the template", () => {
    expect(normalized({ logentry: { message: "a %s", params: ["b"], formatted: "given" } }).logentry?.formatted).toBe("given");
  });

  it("makes an unknown platform 'other' and drops invalid releases and environments", () => {
    const result = ok(normalizeEvent({ platform: "cobol", release: "latest", environment: "a/b" }, OPTS));
    expect(result.event.platform).toBe("other");
    expect(result.event.release).toBeUndefined();
    expect(result.event.environment).toBeUndefined();
    expect(result.warnings).toEqual(expect.arrayContaining(["release: invalid name; dropped", "environment: invalid name; dropped"]));
  });

  it("drops an exception with neither type nor value", () => {
    const event = normalized({ exception: { values: [{ stacktrace: { frames: [{ function: "f" }] } }, { type: "Error" }] } });
    expect(event.exception?.values).toEqual([{ type: "Error" }]);
  });

  it("keeps unknown top-level keys in a bounded other bag", () => {
    const event = normalized({ custom_field: { a: 1 }, huge: "x".repeat(100_000) });
    expect(event.other?.custom_field).toEqual({ a: 1 });
    expect(JSON.stringify(event.other).length).toBeLessThan(9000);
  });

  it("keeps a contexts.trace with valid ids only", () => {
    const event = normalized({ contexts: { trace: { trace_id: "XYZ", span_id: "A1B2C3D4E5F60718" }, os: "not an object" } });
    expect(event.contexts).toEqual({ trace: { span_id: "a1b2c3d4e5f60718" } });
  });

  it("stores a key named __proto__ as data without changing any prototype", () => {
    const raw: unknown = JSON.parse('{"extra": {"__proto__": {"polluted": true}}}');
    const event = normalized(raw);
    expect(Object.getPrototypeOf(event.extra)).toBe(Object.prototype);
    expect(JSON.stringify(event.extra)).toBe('{"__proto__":{"polluted":true}}');
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
  });

  it("removes NUL characters and lone surrogates that PostgreSQL cannot store", () => {
    const event = normalized({ message: "a\u0000b\ud800c" });
    expect(event.logentry?.formatted).toBe("ab\ufffdc");
  });
});
