import { describe, expect, it } from "vitest";
import { scrubCheckIn, scrubFileName, scrubLog, scrubSessionAttrs, scrubSpans, scrubSpanV2, scrubUserReport } from "./scrub-items";

const F = "[Filtered]";
const CARD = "4111 1111 1111 1111";
const attr = (value: unknown, type = "string") => ({ value, type });

describe("scrubLog", () => {
  it("filters secrets in the body and keeps ordinary text", () => {
    const log = { body: `login failed password: hunter2 card ${CARD}, Authorization: Bearer abcdef123456.xyz`, level: "warn" };
    expect(scrubLog(log).scrubbed).toBe(3);
    expect(log.body).toBe(`login failed password: ${F} card ${F}, Authorization: Bearer ${F}`);
  });

  it.each(["password reset email sent", "the password field is required", "token count 12"])("keeps the body %j", (body) => {
    const log = { body };
    expect(scrubLog(log).scrubbed).toBe(0);
    expect(log.body).toBe(body);
  });

  it("filters sensitive attributes, keeping each entry's shape, and scrubs the text of the others", () => {
    const log = {
      body: "checkout",
      attributes: {
        "user.password": attr("hunter2"),
        api_key: attr(12345, "integer"),
        "http.request.header.cookie": attr("theme=dark; sid=abc"),
        note: attr(`card ${CARD}`),
        "sentry.environment": attr("production"),
        count: attr(3, "integer"),
      },
    };
    scrubLog(log);
    expect(log.attributes).toEqual({
      "user.password": attr(F),
      api_key: attr(F),
      "http.request.header.cookie": attr(F),
      note: attr(`card ${F}`),
      "sentry.environment": attr("production"),
      count: attr(3, "integer"),
    });
  });

  it("filters the template parameter that carried a secret out of the body", () => {
    const log = {
      body: "login for ada password=hunter2",
      attributes: {
        "sentry.message.template": attr("login for %s password=%s"),
        "sentry.message.parameter.0": attr("ada"),
        "sentry.message.parameter.1": attr("hunter2"),
      },
    };
    scrubLog(log);
    expect(log.body).toBe(`login for ada password=${F}`);
    expect(log.attributes).toEqual({
      "sentry.message.template": attr("login for %s password=%s"),
      "sentry.message.parameter.0": attr("ada"),
      "sentry.message.parameter.1": attr(F),
    });
  });

  it("follows the project's safe fields, extra sensitive fields and IP setting", () => {
    const log = { body: "x", attributes: { password_hint: attr("blue"), shoe_size: attr("44"), "client.address": attr("203.0.113.9") } };
    scrubLog(log, { safeFields: ["password_hint"], extraSensitiveFields: ["shoe"], storeIpAddresses: false });
    expect(log.attributes).toEqual({ password_hint: attr("blue"), shoe_size: attr(F) });
  });
});

describe("scrubSpanV2", () => {
  it("filters secrets in the span name and its attributes", () => {
    const span = {
      name: "GET /reset?token=abc123",
      attributes: {
        "db.password": attr("pw"),
        "url.full": attr("https://x.test/cb?code=1&access_token=t0k3n"),
        "sentry.op": attr("http.client"),
      },
    };
    scrubSpanV2(span);
    expect(span.name).toBe(`GET /reset?token=${F}`);
    expect(span.attributes).toEqual({
      "db.password": attr(F),
      "url.full": attr(`https://x.test/cb?code=1&access_token=${F}`),
      "sentry.op": attr("http.client"),
    });
  });

  it("keeps AI token counts, whose names say token, and still scrubs their text values", () => {
    const span = {
      name: "chat",
      attributes: { "gen_ai.usage.input_tokens": attr(120, "integer"), "gen_ai.request.messages": attr(`my card is ${CARD}`) },
    };
    scrubSpanV2(span);
    expect(span.attributes).toEqual({
      "gen_ai.usage.input_tokens": attr(120, "integer"),
      "gen_ai.request.messages": attr(`my card is ${F}`),
    });
  });

  it("scrubs every span of a container and skips entries that are not objects", () => {
    const items: unknown[] = [{ name: `pay ${CARD}` }, 42, { name: "ok" }];
    expect(scrubSpans(items).scrubbed).toBe(1);
    expect(items).toEqual([{ name: `pay ${F}` }, 42, { name: "ok" }]);
  });

  it("filters a value nested too deep to check rather than overflowing the stack", () => {
    let deep: unknown = "secret";
    for (let i = 0; i < 20_000; i++) deep = [deep];
    const span = { name: "deep", attributes: { blob: attr(deep, "array") } };
    expect(() => scrubSpanV2(span)).not.toThrow();
    expect(JSON.stringify(span).length).toBeLessThan(1000);
  });

  it("does nothing with the scrubber off but remove IP attributes", () => {
    const span = { name: "password=x", attributes: { password: attr("x"), "user.ip_address": attr("10.0.0.1") } };
    scrubSpanV2(span, { scrubData: false, storeIpAddresses: false });
    expect(span).toEqual({ name: "password=x", attributes: { password: attr("x") } });
  });
});

describe("scrubUserReport", () => {
  it("filters secrets in name and comments and keeps the email as the reporter's contact", () => {
    const report = {
      event_id: "a".repeat(32),
      name: "Ada password=hunter2",
      email: "ada@example.com",
      comments: `my card ${CARD} was charged twice`,
    };
    scrubUserReport(report);
    expect(report).toEqual({
      event_id: "a".repeat(32),
      name: `Ada password=${F}`,
      email: "ada@example.com",
      comments: `my card ${F} was charged twice`,
    });
  });

  it("keeps comments that only mention a password", () => {
    const report = { comments: "the password field is required, but the password reset email sent nothing" };
    expect(scrubUserReport(report).scrubbed).toBe(0);
  });

  it("filters the email when the project lists it as a sensitive field", () => {
    const report = { email: "ada@example.com", comments: "hi" };
    scrubUserReport(report, { extraSensitiveFields: ["email"] });
    expect(report.email).toBe(F);
  });
});

describe("scrubCheckIn", () => {
  it("filters secrets in contexts and config and keeps the fields that find the monitor", () => {
    const checkIn = {
      check_in_id: "c".repeat(32),
      monitor_slug: "nightly-billing",
      status: "error",
      duration: 12.5,
      contexts: { trace: { trace_id: "f".repeat(32) }, job: { api_key: "k-1", log: "using Authorization: Bearer abcdef123456.xyz" } },
      monitor_config: { schedule: { type: "crontab", value: "0 * * * *" } },
    };
    scrubCheckIn(checkIn);
    expect(checkIn).toEqual({
      check_in_id: "c".repeat(32),
      monitor_slug: "nightly-billing",
      status: "error",
      duration: 12.5,
      contexts: { trace: { trace_id: "f".repeat(32) }, job: { api_key: F, log: `using Authorization: Bearer ${F}` } },
      monitor_config: { schedule: { type: "crontab", value: "0 * * * *" } },
    });
  });
});

describe("scrubSessionAttrs", () => {
  it("scrubs release and environment text and keeps the user agent", () => {
    const attrs = { release: "app@1.0+token=abc", environment: "prod", user_agent: "Mozilla/5.0", ip_address: "203.0.113.9" };
    scrubSessionAttrs(attrs);
    expect(attrs).toEqual({ release: `app@1.0+token=${F}`, environment: "prod", user_agent: "Mozilla/5.0", ip_address: "203.0.113.9" });
  });

  it("removes the IP address when the project does not store IPs", () => {
    const attrs: Record<string, unknown> = { release: "app@1.0", ip_address: "{{auto}}" };
    expect(scrubSessionAttrs(attrs, { storeIpAddresses: false }).scrubbed).toBe(1);
    expect(attrs).toEqual({ release: "app@1.0" });
  });
});

describe("scrubFileName", () => {
  it("filters the secrets an attachment's file name carries, as in an event's strings", () => {
    expect(scrubFileName("password=hunter2.txt")).not.toContain("hunter2");
    expect(scrubFileName("card 4111 1111 1111 1111.pdf")).not.toContain("4111 1111 1111 1111");
    expect(scrubFileName("receipt-4111111111111111.png")).not.toContain("4111111111111111");
    expect(scrubFileName("screenshot.png")).toBe("screenshot.png");
  });

  it("follows the project's switches: extra fields filter the name, the data scrubber off keeps it", () => {
    expect(scrubFileName("acme-ledger.csv", { extraSensitiveFields: ["ledger"] })).toBe("[Filtered]");
    expect(scrubFileName("password=hunter2.txt", { scrubData: false })).toBe("password=hunter2.txt");
  });
});
