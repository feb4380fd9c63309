import { readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { digest, storedEvent, tally } from "../../../../test/support/digest-stages";

/** Envelopes @sentry/node 11.1.0 sent (test/fixtures/sdk-envelopes/capture.mjs), digested when they were received. */
const FIXTURES = join(import.meta.dirname, "..", "..", "..", "..", "test", "fixtures", "sdk-envelopes");
const load = (name: string) => readFileSync(join(FIXTURES, `node-${name}.envelope`));
const sentAt = (body: Buffer) =>
  Date.parse((JSON.parse(body.subarray(0, body.indexOf(10)).toString("utf8")) as { sent_at: string }).sent_at);
const digestSent = (body: Buffer) => digest([body], {}, [], sentAt(body) + 50);

describe("each stage on what @sentry/node 11 sends", () => {
  it("errors: a caught SyntaxError becomes one grouped event with its release and stack", async () => {
    const { store, outcomes } = await digestSent(load("error-1"));
    expect(store.stored.events).toHaveLength(1);
    const [record] = store.stored.events;
    expect(record?.facts.release).toBe("shop@2.4.0");
    expect(storedEvent(record!).release).toBe("shop@2.4.0");
    expect(record?.issue.title).toMatch(/^SyntaxError: /);
    expect(storedEvent(record!).exception?.values[0]?.stacktrace?.frames.some((f) => f.function === "loadOrder")).toBe(true);
    expect(tally(outcomes)).toEqual({ "error/accepted/": 1 });
  });

  it("transactions and spans: a span v2 container is three spans, its segment also a transaction", async () => {
    const { store, outcomes } = await digestSent(load("transaction"));
    expect(store.stored.spans.map((s) => s.op).sort()).toEqual(["db.query", "function", "http.server"]);
    expect(store.stored.transactions.map((t) => t.name)).toEqual(["GET /orders/:id"]);
    expect(new Set(store.stored.spans.map((s) => s.traceId)).size).toBe(1);
    expect(tally(outcomes)).toEqual({ "span/accepted/": 3 });
  });

  it("logs: Sentry.logger's three records, with their levels and attributes", async () => {
    const { store, outcomes } = await digestSent(load("logs"));
    expect(store.stored.logs.map((l) => [l.level, l.body])).toEqual([
      ["info", "order loaded"],
      ["warn", "payment retried for order 7"],
      ["error", "payment failed"],
    ]);
    expect(JSON.parse(store.stored.logs[0]!.attributes)).toMatchObject({ orderId: { value: 7 } });
    expect(tally(outcomes)).toEqual({ "log_item/accepted/": 3 });
  });

  it("check-ins: captureCheckIn's slug, status and duration", async () => {
    const { store, outcomes } = await digestSent(load("check-in"));
    expect(store.stored.checkIns).toMatchObject([{ monitorSlug: "nightly-report", status: "ok", duration: 12.5 }]);
    expect(tally(outcomes)).toEqual({ "monitor/accepted/": 1 });
  });

  it("feedback: captureFeedback's message, name and email", async () => {
    const { store, outcomes } = await digestSent(load("feedback"));
    expect(store.stored.feedback).toMatchObject([{ comments: "The checkout button does nothing", email: "ada@example.com", name: "Ada" }]);
    expect(tally(outcomes)).toEqual({ "feedback/accepted/": 1 });
  });

  it("sessions: a session started, then ended crashed, counted by status for its release", async () => {
    const { store, outcomes } = await digest([load("session-0"), load("session-1")], {}, [], sentAt(load("session-0")) + 50);
    expect(store.stored.sessions.every((s) => s.release === "shop@2.4.0" && s.environment === "production")).toBe(true);
    expect(store.stored.sessions.find((s) => s.status === "started")?.quantity).toBe(1);
    expect(tally(outcomes)).toEqual({ "session/accepted/": 2 });
  });
});
