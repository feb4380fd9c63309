import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { parseSettings } from "../../src/config/settings";
import { createUser } from "../../src/core/accounts/create-user";
import type { Ctx } from "../../src/core/context";
import { digestBatch } from "../../src/core/digest/batch";
import { FIRST_RETRY_MS } from "../../src/core/alerts/send";
import { evaluateDueRules, sendDueMetricNotifications } from "../../src/core/metric-alerts/run";
import { createOrganization } from "../../src/core/orgs/create-org";
import { createProject } from "../../src/core/projects/create-project";
import { createToken } from "../../src/core/tokens/tokens";
import { connect } from "../../src/db/connect";
import { KyselyMetricAlertStore } from "../../src/db/metric-alerts-store";
import { createMailer } from "../../src/server/mailer";
import { setLogLevel } from "../../src/server/log";
import { startApiServer } from "../support/api-server";
import { Mailbox } from "../support/mailbox";
import { DIGEST_OPTIONS } from "../support/digest";
import { buildEnvelope, eventItem, newEventId } from "../support/envelopes";
import { startSmtp, type TestSmtp } from "../support/smtp";
import { DIALECTS, openTestStore, testCtx, type TestStore } from "../support/stores";

const PUBLIC_URL = "http://telltale.test:8000";
const MINUTE = 60_000;

/**
 * Issue 14, metric alerts: a rule created through the web API in Sentry's alert-rule shape;
 * errors over its threshold make a critical email through a real SMTP server, their recovery a
 * resolved one; each rule is evaluated once a minute, every evaluation recorded; on PostgreSQL
 * two processes evaluating at once evaluate each rule once. Both databases.
 */
describe.each(DIALECTS)("metric alerts on %s", (dialect) => {
  let store: TestStore;
  let ctx: Ctx;
  let smtp: TestSmtp;
  let api: { base: string; close(): Promise<void> };
  let token = "";
  let clock = 0;
  let webId = 0;
  let ownerId = 0;
  let teamId = 0;
  const owner = "olive@example.com";
  const member = "milo@example.com";

  beforeAll(async () => {
    setLogLevel("error");
    store = await openTestStore(dialect);
    smtp = await startSmtp();
    // The clock starts a little after a minute begins, so that "now" and the events share their minute.
    clock = Math.floor(Date.now() / MINUTE) * MINUTE + 1000;
    ctx = testCtx(store, {
      mailer: createMailer(parseSettings({ TELLTALE_SMTP_URL: smtp.url, TELLTALE_URL: PUBLIC_URL })),
      publicUrl: PUBLIC_URL,
      now: () => clock,
    });
    ownerId = (await createUser({ ctx, input: { email: owner, password: "password-123" } })).id;
    await createUser({ ctx, input: { email: member, password: "password-123" } });
    await createOrganization({ ctx, input: { slug: "acme", owner } });
    const org = await store.db.selectFrom("organizations").select("id").where("slug", "=", "acme").executeTakeFirstOrThrow();
    webId = (await createProject({ ctx, input: { org: "acme", slug: "web" } })).project.id;
    await createProject({ ctx, input: { org: "acme", slug: "api" } });
    teamId = (await ctx.directory.teams(org.id))[0]!.team.id;
    // The default team holds the owner; the member joins it, so the team's alert reaches two people.
    await ctx.directory.addMember(org.id, await userId(member), "member", [teamId], clock);
    token = (await createToken({ ctx, input: { user: owner } })).token;
    api = await startApiServer(ctx);
  });
  afterAll(async () => {
    await api?.close();
    await smtp?.close();
    await store?.cleanup();
  });

  async function userId(email: string): Promise<number> {
    return (await store.db.selectFrom("users").select("id").where("email", "=", email).executeTakeFirstOrThrow()).id;
  }

  const call = async (method: string, path: string, body?: unknown) => {
    const response = await fetch(`${api.base}/api/0/organizations/acme/${path}`, {
      method,
      headers: { authorization: `Bearer ${token}`, "content-type": "application/json" },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    const text = await response.text();
    return { status: response.status, body: (text ? JSON.parse(text) : null) as Record<string, unknown> & Record<string, unknown>[] };
  };

  /** Error events into a project, at the test's clock, through the digest. */
  async function ingest(projectId: number, n: number, extra: Record<string, unknown>): Promise<void> {
    for (let i = 0; i < n; i++) {
      const id = newEventId();
      const body = buildEnvelope({ event_id: id }, [eventItem(id, `checkout failed ${i}`, { timestamp: clock / 1000, ...extra })]);
      await store.queue
        .insertInto("ingest_queue")
        .values({ project_id: projectId, key_id: 0, endpoint: "envelope", received_at: clock, body })
        .execute();
    }
    while ((await digestBatch(ctx, DIGEST_OPTIONS)) > 0);
  }

  /** Sentry's own example of a metric alert rule, as its API documentation writes one. */
  const sentryRule = () => ({
    name: "Too many errors in production",
    aggregate: "count()",
    dataset: "events",
    query: "level:error",
    timeWindow: 5,
    projects: ["web"],
    environment: "production",
    owner: null,
    thresholdType: 0,
    resolveThreshold: 2,
    triggers: [
      { label: "critical", alertThreshold: 10, actions: [{ type: "email", targetType: "team", targetIdentifier: String(teamId) }] },
      { label: "warning", alertThreshold: 5, actions: [{ type: "email", targetType: "user", targetIdentifier: String(ownerId) }] },
    ],
  });

  let ruleId = "";

  it("creates, reads, lists and changes a rule in Sentry's shape", async () => {
    const created = await call("POST", "alert-rules/", sentryRule());
    expect(created.status, JSON.stringify(created.body)).toBe(201);
    ruleId = String(created.body.id);
    expect(created.body).toMatchObject({
      name: "Too many errors in production",
      aggregate: "count()",
      dataset: "events",
      query: "level:error",
      timeWindow: 5,
      projects: ["web"],
      environment: "production",
      thresholdType: 0,
      resolveThreshold: 2,
      status: 0,
      state: "ok",
      // Made with the owner's personal token: Sentry's `{id, name, email}` of its maker.
      createdBy: { id: ownerId, name: owner, email: owner },
    });
    const triggers = created.body.triggers as unknown as {
      label: string;
      alertThreshold: number;
      actions: { targetIdentifier: string }[];
    }[];
    expect(triggers.map((t) => [t.label, t.alertThreshold, t.actions[0]!.targetIdentifier])).toEqual([
      ["critical", 10, String(teamId)],
      ["warning", 5, String(ownerId)],
    ]);
    expect((await call("GET", `alert-rules/${ruleId}/`)).body.name).toBe("Too many errors in production");
    const list = await call("GET", "alert-rules/");
    expect(list.body.map((r: Record<string, unknown>) => r.id)).toEqual([ruleId]);
    expect(list.body[0]?.createdBy).toEqual({ id: ownerId, name: owner, email: owner });
    const renamed = await call("PUT", `alert-rules/${ruleId}/`, { name: "Checkout errors" });
    expect([renamed.status, renamed.body.name, renamed.body.timeWindow]).toEqual([200, "Checkout errors", 5]);
  });

  it("refuses what it cannot evaluate, with a 400 that says why", async () => {
    const cases: [Record<string, unknown>, RegExp][] = [
      [{ aggregate: "p95(transaction.duration)" }, /aggregate is count\(\)/],
      [{ query: "is:unresolved" }, /query: a metric alert's query takes level:, environment: and event.type:error/],
      [{ timeWindow: 7 }, /timeWindow is one of 1, 5, 10/],
      [{ projects: ["nope"] }, /project 'nope' does not exist/],
      [{ triggers: [{ label: "warning", alertThreshold: 5, actions: [] }] }, /triggers has a critical trigger/],
      [{ resolveThreshold: 50 }, /resolveThreshold is at most the warning threshold/],
    ];
    for (const [change, message] of cases) {
      const answer = await call("POST", "alert-rules/", { ...sentryRule(), ...change });
      expect([answer.status, String(answer.body.detail)], JSON.stringify(change)).toEqual([400, expect.stringMatching(message)]);
    }
    expect((await call("GET", "alert-rules/999999/")).status).toBe(404);
  });

  it("emails the team a critical alert when errors pass the threshold, once", async () => {
    // Counted: errors in production. Not counted: warnings, another environment, another project.
    await ingest(webId, 12, { environment: "production", user: { id: "u1" } });
    await ingest(webId, 4, { environment: "production", level: "warning" });
    await ingest(webId, 30, { environment: "staging" });
    // A window is of complete minutes: the errors' minute is read once it is over.
    clock += MINUTE;
    expect(await evaluateDueRules(ctx)).toBe(1);
    // Evaluated once a minute: not again within the same one.
    expect(await evaluateDueRules(ctx)).toBe(0);
    const rule = await ctx.metricAlerts.rule(await orgId(), Number(ruleId));
    expect([rule!.state, rule!.nextEvalAt]).toEqual(["critical", Math.floor(clock / MINUTE) * MINUTE + MINUTE]);
    const [evaluation] = await ctx.metricAlerts.evaluations(rule!.id, 5);
    expect([evaluation!.value, evaluation!.state, evaluation!.transition]).toEqual([12, "critical", "critical"]);
    expect(await sendDueMetricNotifications(ctx)).toEqual({ sent: 2, failed: 0, notSent: 0 });
    const mail = await smtp.nextTo(owner);
    expect(mail.subject).toBe("[acme] Critical: Checkout errors");
    expect(mail.text).toContain("12 errors in the last 5 minutes (over 10).");
    expect(mail.text).toContain("Filter: level:error");
    expect(mail.text).toContain("Environment: production");
    const link = `${PUBLIC_URL}/orgs/acme/metric-alerts?rule=${ruleId}`;
    expect(mail.text).toContain(link);
    expect(mail.html).toContain(`href="${link}"`);
    const notes = await ctx.metricAlerts.notifications({ organizationId: await orgId() }, 10);
    expect(notes.map((n) => [n.kind, n.email, n.status]).sort()).toEqual([
      ["critical", member, "sent"],
      ["critical", owner, "sent"],
    ]);
    expect(mail.messageId).toBe(`<alert.${notes.find((n) => n.email === owner)!.id}@telltale.test>`);
  });

  it("stays critical while the value stays past the resolve threshold, and emails 'resolved' when it recovers", async () => {
    clock += 3 * MINUTE;
    expect(await evaluateDueRules(ctx)).toBe(1);
    expect((await ctx.metricAlerts.evaluations(Number(ruleId), 1))[0]).toMatchObject({ value: 12, state: "critical", transition: null });
    expect(await sendDueMetricNotifications(ctx)).toEqual({ sent: 0, failed: 0, notSent: 0 });
    // Once five complete minutes follow the errors' minute, it is out of the window.
    clock += 2 * MINUTE;
    expect(await evaluateDueRules(ctx)).toBe(1);
    expect((await ctx.metricAlerts.evaluations(Number(ruleId), 1))[0]).toMatchObject({ value: 0, state: "ok", transition: "resolved" });
    expect(await sendDueMetricNotifications(ctx)).toEqual({ sent: 2, failed: 0, notSent: 0 });
    const mail = await smtp.nextTo(owner, 1);
    expect(mail.subject).toBe("[acme] Resolved: Checkout errors");
    expect(mail.text).toContain("0 errors in the last 5 minutes (back under 2).");
    expect((await ctx.metricAlerts.evaluations(Number(ruleId), 10)).map((e) => e.state)).toEqual(["ok", "critical", "critical"]);
  });

  it("counts users affected, each once, for count_unique(user)", async () => {
    const users = await call("POST", "alert-rules/", {
      ...sentryRule(),
      name: "Many users affected",
      aggregate: "count_unique(user)",
      query: "",
      environment: null,
      projects: ["web", "api"],
      resolveThreshold: null,
      triggers: [{ label: "critical", alertThreshold: 2, actions: [{ type: "email", targetType: "user", targetIdentifier: ownerId }] }],
    });
    expect(users.status, JSON.stringify(users.body)).toBe(201);
    const apiId = (await store.db.selectFrom("projects").select("id").where("slug", "=", "api").executeTakeFirstOrThrow()).id;
    clock += MINUTE;
    await ingest(webId, 5, { user: { id: "same" } });
    await ingest(apiId, 2, { user: { id: "same" } });
    await ingest(apiId, 1, { user: { email: "other@example.com" } });
    clock += MINUTE;
    expect(await evaluateDueRules(ctx)).toBe(2);
    const rule = (await ctx.metricAlerts.rules(await orgId())).find((r) => r.name === "Many users affected")!;
    expect((await ctx.metricAlerts.evaluations(rule.id, 1))[0]).toMatchObject({ value: 2, state: "ok" });
    await ingest(apiId, 1, { user: { id: "third" } });
    clock += MINUTE;
    expect(await evaluateDueRules(ctx)).toBe(2);
    expect((await ctx.metricAlerts.evaluations(rule.id, 1))[0]).toMatchObject({ value: 3, state: "critical", transition: "critical" });
    await sendDueMetricNotifications(ctx);
    const mail = await smtp.nextTo(owner, 2);
    expect(mail.subject).toBe("[acme] Critical: Many users affected");
    expect(mail.text).toContain("3 users affected in the last 5 minutes (over 2).");
    expect((await call("DELETE", `alert-rules/${rule.id}/`)).status).toBe(204);
    expect((await call("GET", `alert-rules/${rule.id}/`)).status).toBe(404);
  });

  it("tries a refused email again after the issue alerts' back-off, recording each attempt", async () => {
    const mailbox = new Mailbox();
    mailbox.failing = true;
    const flaky = testCtx(store, { mailer: mailbox, publicUrl: PUBLIC_URL, now: () => clock });
    const created = await call("POST", "alert-rules/", {
      ...sentryRule(),
      name: "Any fatal",
      query: "level:fatal",
      environment: null,
      resolveThreshold: null,
      triggers: [{ label: "critical", alertThreshold: 0, actions: [{ type: "email", targetType: "user", targetIdentifier: ownerId }] }],
    });
    clock += MINUTE;
    await ingest(webId, 1, { level: "fatal" });
    clock += MINUTE;
    // Sent by the flaky mailer only: the SMTP server's sender is not driven here.
    await evaluateDueRules(flaky);
    expect(await sendDueMetricNotifications(flaky)).toEqual({ sent: 0, failed: 1, notSent: 0 });
    const [note] = await flaky.metricAlerts.notifications({ organizationId: await orgId(), ruleId: Number(created.body.id) }, 5);
    expect([note!.status, note!.attempts, note!.nextAttemptAt - clock, note!.lastError]).toEqual([
      "pending",
      1,
      FIRST_RETRY_MS,
      "the SMTP server is down",
    ]);
    mailbox.failing = false;
    clock += FIRST_RETRY_MS - 1000;
    expect(await sendDueMetricNotifications(flaky)).toEqual({ sent: 0, failed: 0, notSent: 0 });
    clock += 1000;
    expect(await sendDueMetricNotifications(flaky)).toEqual({ sent: 1, failed: 0, notSent: 0 });
    expect(mailbox.sent.map((m) => [m.to, m.subject, m.messageId])).toEqual([
      [owner, "[acme] Critical: Any fatal", `<alert.${note!.id}@telltale.test>`],
    ]);
    const attempts = await store.db
      .selectFrom("metric_alert_attempts")
      .select(["attempt", "status"])
      .where("notification_id", "=", note!.id)
      .orderBy("attempt")
      .execute();
    expect(attempts).toEqual([
      { attempt: 1, status: "failed" },
      { attempt: 2, status: "sent" },
    ]);
    expect((await call("DELETE", `alert-rules/${String(created.body.id)}/`)).status).toBe(204);
  });

  it("fires a one-minute rule on the minute just over, not on the nearly empty one it is evaluated in", async () => {
    const created = await call("POST", "alert-rules/", {
      ...sentryRule(),
      name: "Error burst",
      query: "",
      environment: null,
      timeWindow: 1,
      resolveThreshold: null,
      triggers: [{ label: "critical", alertThreshold: 100, actions: [{ type: "email", targetType: "user", targetIdentifier: ownerId }] }],
    });
    expect(created.status, JSON.stringify(created.body)).toBe(201);
    const id = Number(created.body.id);
    // The loop evaluates at a minute's start; 110 errors arrive over the rest of that minute.
    clock += MINUTE;
    await evaluateDueRules(ctx);
    const start = Math.floor(clock / MINUTE) * MINUTE;
    for (let s = 0; s < 11; s++) await ingest(webId, 10, { timestamp: (start + 5000 * s + 2000) / 1000 });
    clock = start + MINUTE + 500;
    await evaluateDueRules(ctx);
    expect((await ctx.metricAlerts.evaluations(id, 2)).map((e) => [e.value, e.state])).toEqual([
      [110, "critical"],
      [0, "ok"],
    ]);
    expect((await call("DELETE", `alert-rules/${id}/`)).status).toBe(204);
  });

  it.runIf(dialect === "postgres")("evaluates each rule once when two processes evaluate at the same time", async () => {
    const other = connect({ kind: "postgres", url: store.env.DATABASE_URL!, poolMax: 4 });
    try {
      clock += MINUTE;
      const second = testCtx(other, { now: () => clock, metricAlerts: new KyselyMetricAlertStore(other.db, "postgres") });
      const [a, b] = await Promise.all([evaluateDueRules(ctx), evaluateDueRules(second)]);
      expect(a + b).toBe(1);
      const rows = await store.db.selectFrom("metric_alert_evaluations").select("minute").where("rule_id", "=", Number(ruleId)).execute();
      expect(rows.filter((r) => Number(r.minute) === Math.floor(clock / MINUTE) * MINUTE)).toHaveLength(1);
    } finally {
      await other.close();
    }
  });

  async function orgId(): Promise<number> {
    return (await store.db.selectFrom("organizations").select("id").where("slug", "=", "acme").executeTakeFirstOrThrow()).id;
  }
});
