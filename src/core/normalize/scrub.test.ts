import { describe, expect, it } from "vitest";
import { normalizeEvent, type NormalizeOptions } from "./normalize-event";
import { RECEIVED_AT } from "../../../test/support/sdk-events";
import { scrubEvent } from "./scrub";
import type { NormalizedEvent } from "./types";

function scrubbed(raw: Record<string, unknown>, scrub: NormalizeOptions["scrub"] = {}): { event: NormalizedEvent; count: number } {
  const result = normalizeEvent(raw, { receivedAt: RECEIVED_AT, scrub });
  if (!result.ok) throw new Error(result.reason);
  return { event: result.event, count: result.scrubbed };
}

const F = "[Filtered]";

describe("scrubEvent key names", () => {
  const families: Record<string, string[]> = {
    password: ["password", "user_password", "PASSWORD", "Password2", "passwd", "mysql_pwd"],
    secret: ["secret", "client_secret", "AWS_SECRET_ACCESS_KEY"],
    "api key": ["api_key", "apikey", "X-Api-Key", "stripe_api-key"],
    token: ["token", "access_token", "auth_token", "refresh_token", "csrftoken", "stripeToken", "github_token"],
    auth: ["auth", "authorization", "Proxy-Authorization", "oauth_verifier"],
    credentials: ["credentials", "aws_credentials"],
    "private key": ["privatekey", "private_key", "ssh-private-key"],
    "session and CSRF cookies": [
      "sessionid",
      "session",
      "PHPSESSID",
      "user_session",
      "_csrf",
      "xsrf-token",
      "csrf_token",
      "_vercel_jwt",
      "laravel_session",
    ],
    "one-time codes": ["otp", "two_factor"],
    bearer: ["bearer"],
  };

  for (const [family, keys] of Object.entries(families)) {
    it(`filters ${family} keys in extra, case-insensitively`, () => {
      const extra = Object.fromEntries(keys.map((key) => [key, "value-1"]));
      const { event, count } = scrubbed({ extra });
      expect(event.extra).toEqual(Object.fromEntries(keys.map((key) => [key, F])));
      expect(count).toBe(keys.length);
    });
  }

  it("filters sensitive keys deep inside nested objects and arrays", () => {
    const { event } = scrubbed({ extra: { config: { db: [{ host: "db", Password: "x" }], nested: { deeper: { api_key: 1 } } } } });
    expect(event.extra).toEqual({ config: { db: [{ host: "db", Password: F }], nested: { deeper: { api_key: F } } } });
  });

  it("filters a whole object under a sensitive key", () => {
    expect(scrubbed({ extra: { credentials: { user: "u", pass: "p" } } }).event.extra).toEqual({ credentials: F });
  });

  it("leaves ordinary keys, null values and numbers under plain keys alone", () => {
    const extra = { order_id: 1234, note: "ship fast", token: null, author_count: 3 };
    const { event, count } = scrubbed({ extra });
    expect(event.extra).toEqual({ order_id: 1234, note: "ship fast", token: null, author_count: F });
    expect(count).toBe(1); // "author" contains "auth", as in Sentry's rule
  });

  it("scrubs contexts, user data, breadcrumb data, frame vars, tags and span data", () => {
    const { event } = scrubbed({
      type: "transaction",
      timestamp: RECEIVED_AT.getTime() / 1000,
      start_timestamp: RECEIVED_AT.getTime() / 1000 - 1,
      contexts: { app: { app_secret: "s", name: "shop" } },
      user: { id: "1", api_token: "t" },
      breadcrumbs: [{ category: "http", data: { url: "/x", Authorization: "Basic abc" } }],
      exception: { values: [{ type: "E", stacktrace: { frames: [{ function: "f", vars: { password: "pw", n: 1 } }] } }] },
      tags: { session_id: "abc", plan: "pro" },
      spans: [
        {
          span_id: "a1b2c3d4e5f60718",
          start_timestamp: RECEIVED_AT.getTime() / 1000 - 1,
          timestamp: RECEIVED_AT.getTime() / 1000,
          data: { "db.password": "pw" },
          tags: { token: "t" },
        },
      ],
    });
    expect(event.contexts?.app).toEqual({ app_secret: F, name: "shop" });
    expect(event.user).toEqual({ id: "1", data: { api_token: F } });
    expect(event.breadcrumbs?.values[0]?.data).toEqual({ url: "/x", Authorization: F });
    expect(event.exception?.values[0]?.stacktrace?.frames[0]?.vars).toEqual({ password: F, n: 1 });
    expect(event.tags).toEqual([
      ["session_id", F],
      ["plan", "pro"],
    ]);
    expect(event.spans?.[0]?.data).toEqual({ "db.password": F });
    expect(event.spans?.[0]?.tags).toEqual({ token: F });
  });

  it("scrubs header values, keeps the user agent as sent and parses a cookie header", () => {
    const { event } = scrubbed({
      request: {
        headers: [
          ["X-Auth-Token", "abc"],
          ["User-Agent", "Mozilla/5.0 Bearer-ish 4111111111111111"],
          ["Cookie", "csrftoken=abc; lang=en"],
          ["Set-Cookie", "sessionid=xyz; Path=/"],
        ],
      },
    });
    expect(event.request?.headers).toEqual([
      ["X-Auth-Token", F],
      ["User-Agent", "Mozilla/5.0 Bearer-ish 4111111111111111"],
      ["Set-Cookie", `sessionid=${F}; Path=/`],
    ]);
    expect(event.request?.cookies).toEqual([
      ["csrftoken", F],
      ["lang", "en"],
    ]);
  });
});

describe("scrubEvent values in free text", () => {
  it("filters a card number with a valid Luhn checksum in a message and an exception value", () => {
    const { event } = scrubbed({
      message: "charge failed for 4111 1111 1111 1111",
      exception: { values: [{ type: "CardError", value: "card 5500-0000-0000-0004 declined" }] },
    });
    expect(event.logentry?.formatted).toBe(`charge failed for ${F}`);
    expect(event.exception?.values[0]?.value).toBe(`card ${F} declined`);
  });

  it("filters a card number sent as a JSON number and keeps other large numbers", () => {
    const { event } = scrubbed({ extra: { pan: 4111111111111111, order: 4111111111111112, ms: 1795331379614 } });
    expect(event.extra).toEqual({ pan: F, order: 4111111111111112, ms: 1795331379614 });
  });

  it("keeps digit runs that fail the Luhn check, such as order ids", () => {
    const text = "order 4111111111111112 shipped, tracking 1234567890123456, ts 1795331379614";
    expect(scrubbed({ message: text }).event.logentry?.formatted).toBe(text);
  });

  it("filters the body of a private key and a bearer token in extra strings", () => {
    const pem = "-----BEGIN RSA PRIVATE KEY-----\nMIIEowIBAAKCAQEA7\n-----END RSA PRIVATE KEY-----";
    const { event } = scrubbed({ extra: { config: pem, log: "sent Authorization: Bearer abcdef123456.xyz ok" } });
    expect(event.extra).toEqual({
      config: `-----BEGIN RSA PRIVATE KEY-----${F}-----END RSA PRIVATE KEY-----`,
      log: `sent Authorization: Bearer ${F} ok`,
    });
  });

  it("filters a private key in an exception value", () => {
    const value = "bad key -----BEGIN PRIVATE KEY-----\nabc\n-----END PRIVATE KEY-----";
    const { event } = scrubbed({ exception: { values: [{ type: "Error", value }] } });
    expect(event.exception?.values[0]?.value).toBe(`bad key -----BEGIN PRIVATE KEY-----${F}-----END PRIVATE KEY-----`);
  });

  it("filters a password in a connection URL", () => {
    const { event } = scrubbed({ extra: { db: "postgres://app:s3cret@db.internal:5432/shop" } });
    expect(event.extra?.db).toBe(`postgres://app:${F}@db.internal:5432/shop`);
  });

  it("filters sensitive pairs in log lines and query strings", () => {
    const { event } = scrubbed({ message: "login failed user=ada password=hunter2 next=/home" });
    expect(event.logentry?.formatted).toBe(`login failed user=ada password=${F} next=/home`);
  });
});

describe("scrubEvent free-text pairs and message parameters", () => {
  it("filters `password: …` in a message and the parameter that carried the secret", () => {
    const { event } = scrubbed({ logentry: { message: "login failed for %s password: %s", params: ["ada", "hunter2"] } });
    expect(event.logentry?.formatted).toBe(`login failed for ada password: ${F}`);
    expect(event.logentry?.message).toBe("login failed for %s password: %s");
    expect(event.logentry?.params).toEqual(["ada", F]);
  });

  it.each(["password reset email sent", "the password field is required", "token count 12"])("keeps the message %j", (message) => {
    expect(scrubbed({ message }).event.logentry?.formatted).toBe(message);
  });

  it("keeps a label followed by ordinary words in the message and the exception value", () => {
    const text = "auth: payment declined by gateway";
    const { event, count } = scrubbed({ message: text, exception: { values: [{ type: "PaymentError", value: text }] } });
    expect(event.logentry?.formatted).toBe(text);
    expect(event.exception?.values[0]?.value).toBe(text);
    expect(count).toBe(0);
  });

  it("filters a secret in the transaction name, the root span's name on the trace page", () => {
    const now = RECEIVED_AT.getTime() / 1000;
    const { event } = scrubbed({ type: "transaction", transaction: "GET /reset?token=abc123", timestamp: now, start_timestamp: now - 1 });
    expect(event.transaction).toBe(`GET /reset?token=${F}`);
  });

  it("reads a type annotation in a source line as code, not as a `key: value` pair", () => {
    const frame = { function: "login", context_line: "function login(password: string) {", pre_context: ['const apiKey = "k-123";'] };
    const { event } = scrubbed({ exception: { values: [{ type: "E", stacktrace: { frames: [frame] } }] } });
    const stored = event.exception?.values[0]?.stacktrace?.frames[0];
    expect(stored?.context_line).toBe("function login(password: string) {");
    expect(stored?.pre_context).toEqual([`const apiKey = "${F}";`]);
  });
});

describe("scrubEvent project options", () => {
  it("never scrubs safe fields, nor anything under them", () => {
    const { event } = scrubbed({ extra: { password_hint: "blue", auth: { token: "t" } } }, { safeFields: ["Password_Hint", "auth"] });
    expect(event.extra).toEqual({ password_hint: "blue", auth: { token: "t" } });
  });

  it("filters extra sensitive fields by key and by a value that contains them", () => {
    const { event } = scrubbed(
      { extra: { MySekretThing: "a", note: "has mysekret inside", other: "fine" } },
      { extraSensitiveFields: ["mysekret"] },
    );
    expect(event.extra).toEqual({ MySekretThing: F, note: F, other: "fine" });
  });

  it("does nothing but IP removal when scrubbing is off", () => {
    const raw = { extra: { password: "p" }, user: { ip_address: "203.0.113.1" } };
    const { event, count } = scrubbed(raw, { scrubData: false, storeIpAddresses: false });
    expect(event.extra).toEqual({ password: "p" });
    expect(event.user).toEqual({});
    expect(count).toBe(1);
  });

  it("applies only extra fields when the default scrubbers are off", () => {
    const { event } = scrubbed({ extra: { password: "p", mysekret: "x" } }, { scrubDefaults: false, extraSensitiveFields: ["mysekret"] });
    expect(event.extra).toEqual({ password: "p", mysekret: F });
  });

  it("skips scrubbing entirely with scrub: false", () => {
    const result = normalizeEvent({ extra: { password: "p" } }, { receivedAt: RECEIVED_AT, scrub: false });
    expect(result.ok && result.event.extra).toEqual({ password: "p" });
  });

  it("removes forwarding headers and REMOTE_ADDR when IPs are not stored", () => {
    const { event } = scrubbed(
      { request: { headers: { "x-forwarded-for": "1.2.3.4", "X-Real-IP": "1.2.3.4", accept: "*/*" }, env: { REMOTE_ADDR: "1.2.3.4" } } },
      { storeIpAddresses: false },
    );
    expect(event.request?.headers).toEqual([["Accept", "*/*"]]);
    expect(event.request?.env).toEqual({});
  });

  it("is idempotent: scrubbing a scrubbed event changes and counts nothing", () => {
    const { event } = scrubbed({ extra: { password: "p", card: "4111111111111111" } });
    const before = JSON.stringify(event);
    expect(scrubEvent(event).scrubbed).toBe(0);
    expect(JSON.stringify(event)).toBe(before);
  });
});
