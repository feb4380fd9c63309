import { readFileSync } from "node:fs";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { parseSettings } from "../../src/config/settings";
import { createUser } from "../../src/core/accounts/create-user";
import { ALERTS_CONSUMER, alertConsumer } from "../../src/core/alerts/consumer";
import { FIRST_RETRY_MS, NO_SMTP, sendDueNotifications } from "../../src/core/alerts/send";
import type { Ctx } from "../../src/core/context";
import { digestBatch } from "../../src/core/digest/batch";
import { createOrganization } from "../../src/core/orgs/create-org";
import { driveInProcessConsumers } from "../../src/core/outbox/in-process";
import { createProject } from "../../src/core/projects/create-project";
import { createMailer } from "../../src/server/mailer";
import { setLogLevel } from "../../src/server/log";
import { runNodeClient } from "../support/clients";
import { DIGEST_OPTIONS, queueEnvelope } from "../support/digest";
import { errorEnvelope, newEventId } from "../support/envelopes";
import { startFront, type TestFront } from "../support/front";
import { startSmtp, type TestSmtp } from "../support/smtp";
import { DIALECTS, openTestStore, testCtx, type TestStore } from "../support/stores";

const PUBLIC_URL = "http://telltale.test:8000";

async function drain(ctx: Ctx): Promise<void> {
  while ((await digestBatch(ctx, DIGEST_OPTIONS)) > 0);
}

/**
 * Issue 14: a new issue raised by @sentry/node reaches a real SMTP server through the default
 * rule of a new project; a refused message is tried again later; a change read twice makes one
 * email; without SMTP, notifications are recorded as not sent. Both databases.
 */
describe.each(DIALECTS)("issue alert emails on %s", (dialect) => {
  let store: TestStore;
  let ctx: Ctx;
  let smtp: TestSmtp;
  let front: TestFront;
  let projectId = 0;
  let dsn = "";
  const owner = "olive@example.com";

  beforeAll(async () => {
    setLogLevel("error");
    store = await openTestStore(dialect);
    smtp = await startSmtp({ refuseFirst: 0 });
    ctx = testCtx(store, {
      mailer: createMailer(parseSettings({ TELLTALE_SMTP_URL: smtp.url, TELLTALE_URL: PUBLIC_URL })),
      publicUrl: PUBLIC_URL,
    });
    await createUser({ ctx, input: { email: owner, password: "password-123" } });
    await createOrganization({ ctx, input: { slug: "acme", owner } });
    const { project, key } = await createProject({ ctx, input: { org: "acme", slug: "node-app", platform: "node" } });
    projectId = project.id;
    front = await startFront(ctx);
    dsn = `http://${key.public_key}@127.0.0.1:${front.port}/${project.id}`;
  });
  afterAll(async () => {
    await front?.close();
    await smtp?.close();
    await store?.cleanup();
  });

  it("gives a new project the default rule and the internal project none", async () => {
    const rules = await ctx.alerts.rules(projectId);
    expect(rules.map((r) => [r.name, r.isDefault, r.status, r.conditions.map((c) => c.id)])).toEqual([
      ["Send a notification for new issues", true, "active", ["sentry.rules.conditions.first_seen_event.FirstSeenEventCondition"]],
    ]);
    const internal = await store.db
      .selectFrom("projects")
      .innerJoin("organizations", "organizations.id", "projects.organization_id")
      .select("projects.id")
      .where("organizations.is_internal", "=", 1)
      .execute();
    expect(internal.length).toBeGreaterThan(0);
    for (const p of internal) expect(await ctx.alerts.rules(p.id)).toEqual([]);
  });

  it("emails the project's members about a new issue from @sentry/node, with its link and stack", async () => {
    const started = Date.now();
    await runNodeClient(dsn, "basic");
    await drain(ctx);
    const result = await sendDueNotifications(ctx);
    expect(result.sent).toBeGreaterThanOrEqual(3);
    const issue = await store.db
      .selectFrom("issues")
      .selectAll()
      .where("project_id", "=", projectId)
      .where("title", "like", "SyntaxError%")
      .executeTakeFirstOrThrow();
    await smtp.nextTo(owner, 2);
    const mail = smtp.messages.find((m) => m.subject?.includes("SyntaxError"));
    const ms = Date.now() - started;
    expect(mail, smtp.messages.map((m) => m.subject).join("\n")).toBeDefined();
    expect(mail!.subject).toBe(`[node-app] New issue: ${issue.title}`.slice(0, 250));
    const link = `${PUBLIC_URL}/orgs/acme/issues/${issue.id}/`;
    expect(mail!.text).toContain(link);
    expect(mail!.html).toContain(`href="${link}"`);
    // The newest in-app frame is the fixture's line that calls JSON.parse.
    const line =
      readFileSync(join(import.meta.dirname, "../fixtures/clients/node-client.mjs"), "utf8")
        .split("\n")
        .findIndex((l) => l.includes('JSON.parse("{not json")')) + 1;
    expect(mail!.text).toMatch(new RegExp(`\\n {4}at Object\\.basic \\(\\S*node-client\\.mjs:${line}:\\d+\\)`));
    expect(mail!.html).toMatch(new RegExp(`<pre[^>]*>SyntaxError: [^<]*\\nat Object\\.basic \\(\\S*node-client\\.mjs:${line}:`));
    expect(mail!.text).toContain("Level: error");
    const notes = await ctx.alerts.notifications({ issueId: issue.id });
    expect(notes.map((n) => [n.target, n.status, n.attempts, n.changeKind])).toEqual([[owner, "sent", 1, "created"]]);
    expect(mail!.messageId).toBe(`<alert.${notes[0]!.id}@telltale.test>`);
    expect(notes[0]!.id).toMatch(/^issue-change-\d+\.rule-\d+\.user-\d+$/);
    console.log(`[alerts ${dialect}] SDK request to email in the SMTP inbox: ${ms} ms (digest and sender driven by the test)`);
  });

  it("makes one notification of a change read twice (at-least-once reading)", async () => {
    const before = (await ctx.alerts.notifications({ projectId })).length;
    const emails = smtp.countTo(owner);
    await store.db.updateTable("outbox_positions").set({ seq: 0 }).where("consumer", "=", ALERTS_CONSUMER).execute();
    expect(await driveInProcessConsumers(ctx, [alertConsumer])).toBeGreaterThan(0);
    expect((await ctx.alerts.notifications({ projectId })).length).toBe(before);
    expect(await sendDueNotifications(ctx)).toEqual({ sent: 0, failed: 0, notSent: 0 });
    expect(smtp.countTo(owner)).toBe(emails);
  });

  it("looks a burst of new issues' recipients and opt-outs up once per run, and notifies about each issue", async () => {
    let memberLookups = 0;
    let optOutLookups = 0;
    /** `target` whose calls of `method` are counted. */
    const counting = <T extends object>(target: T, method: string, count: () => void): T =>
      new Proxy(target, {
        get(t, name) {
          const value: unknown = Reflect.get(t, name);
          if (typeof value !== "function") return value;
          return (...args: unknown[]) => {
            if (name === method) count();
            return (value as (...a: unknown[]) => unknown).apply(t, args);
          };
        },
      });
    // The outbox hands each consumer's batch stores counted as above.
    const countingCtx: Ctx = {
      ...ctx,
      outbox: {
        head: () => ctx.outbox.head(),
        positions: (consumers) => ctx.outbox.positions(consumers),
        consume: (consumer, batch, run, now) =>
          ctx.outbox.consume(
            consumer,
            batch,
            (changes, ports) =>
              run(changes, {
                ...ports,
                alerts: counting(ports.alerts, "projectMembers", () => memberLookups++),
                userNotifications: counting(ports.userNotifications, "optedOut", () => optOutLookups++),
              }),
            now,
          ),
      },
    };
    const before = new Set((await ctx.alerts.notifications({ projectId })).map((n) => n.issueId));
    // Words, not numbers: grouping puts messages that differ only in numbers together.
    for (const word of ["alpha", "bravo", "charlie", "delta", "echo"])
      await queueEnvelope(store, projectId, errorEnvelope(newEventId(), `burst ${word}: a new problem of its own`));
    await drain(countingCtx);
    const made = (await ctx.alerts.notifications({ projectId })).filter((n) => !before.has(n.issueId));
    expect(made.map((n) => [n.target, n.changeKind])).toEqual(Array.from({ length: 5 }, () => [owner, "created"]));
    expect(new Set(made.map((n) => n.issueId)).size).toBe(5);
    expect([memberLookups, optOutLookups]).toEqual([1, 1]);
  });

  it("notifies nobody while the project's rule is switched off", async () => {
    const before = (await ctx.alerts.notifications({ projectId })).length;
    const [rule] = await ctx.alerts.rules(projectId);
    await ctx.alerts.updateRule(projectId, rule!.id, { ...rule!, status: "disabled" }, Date.now());
    await runNodeClient(dsn, "request");
    await drain(ctx);
    expect((await ctx.alerts.notifications({ projectId })).length).toBe(before);
    await ctx.alerts.updateRule(projectId, rule!.id, { ...rule!, status: "active" }, Date.now());
  });
});

describe.each(DIALECTS)("issue alert delivery on %s", (dialect) => {
  let store: TestStore;
  let smtp: TestSmtp;
  let clock = Date.UTC(2026, 10, 25, 12);
  const owner = "rita@example.com";

  beforeAll(async () => {
    setLogLevel("error");
    store = await openTestStore(dialect);
    smtp = await startSmtp({ refuseFirst: 1 });
  });
  afterAll(async () => {
    await smtp?.close();
    await store?.cleanup();
  });

  async function newIssue(ctx: Ctx, org: string, message: string): Promise<number> {
    const { project } = await createProject({ ctx, input: { org, slug: "p" } });
    await store.queue
      .insertInto("ingest_queue")
      .values({
        project_id: project.id,
        key_id: 0,
        endpoint: "envelope",
        received_at: Date.now(),
        body: errorEnvelope(newEventId(), message),
      })
      .execute();
    await drain(ctx);
    return project.id;
  }

  it("tries a refused email again after the back-off: one delivered, two attempts recorded", async () => {
    const ctx = testCtx(store, {
      mailer: createMailer(parseSettings({ TELLTALE_SMTP_URL: smtp.url, TELLTALE_URL: PUBLIC_URL })),
      publicUrl: PUBLIC_URL,
      now: () => clock,
    });
    await createUser({ ctx, input: { email: owner, password: "password-123" } });
    await createOrganization({ ctx, input: { slug: "retry", owner } });
    const projectId = await newIssue(ctx, "retry", "refused at first");
    expect(await sendDueNotifications(ctx)).toEqual({ sent: 0, failed: 1, notSent: 0 });
    const [note] = await ctx.alerts.notifications({ projectId });
    expect([note!.status, note!.attempts, note!.nextAttemptAt - clock]).toEqual(["pending", 1, FIRST_RETRY_MS]);
    expect(note!.lastError).toMatch(/try again later/);
    // Not yet due: nothing is sent.
    clock += FIRST_RETRY_MS - 1000;
    expect(await sendDueNotifications(ctx)).toEqual({ sent: 0, failed: 0, notSent: 0 });
    clock += 1000;
    expect(await sendDueNotifications(ctx)).toEqual({ sent: 1, failed: 0, notSent: 0 });
    const mail = await smtp.nextTo(owner);
    expect(mail.subject).toBe("[p] New issue: refused at first");
    expect(smtp.countTo(owner)).toBe(1);
    const attempts = await ctx.alerts.attempts(note!.id);
    expect(attempts.map((a) => [a.attempt, a.status])).toEqual([
      [1, "failed"],
      [2, "sent"],
    ]);
    expect(attempts[0]!.error).toMatch(/451|try again later/);
  });

  it("records a notification as not sent, once, when no SMTP server is configured", async () => {
    const ctx = testCtx(store, { mailer: null, now: () => clock });
    await createUser({ ctx, input: { email: "nosmtp@example.com", password: "password-123" } });
    await createOrganization({ ctx, input: { slug: "nosmtp", owner: "nosmtp@example.com" } });
    const projectId = await newIssue(ctx, "nosmtp", "nobody hears this");
    expect(await sendDueNotifications(ctx)).toEqual({ sent: 0, failed: 0, notSent: 1 });
    clock += 24 * 3_600_000;
    expect(await sendDueNotifications(ctx)).toEqual({ sent: 0, failed: 0, notSent: 0 });
    const [note] = await ctx.alerts.notifications({ projectId });
    expect([note!.status, note!.lastError, note!.attempts]).toEqual(["not_sent", NO_SMTP, 1]);
  });
});
