import { createHmac, timingSafeEqual } from "node:crypto";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createUser } from "../../src/core/accounts/create-user";
import { createRule } from "../../src/core/alerts/manage-rules";
import { DISCORD_ACTION, FIRST_SEEN, REGRESSION, SLACK_ACTION, WEBHOOK_ACTION } from "../../src/core/alerts/rule-schema";
import { CLAIM_LEASE_MS, FIRST_RETRY_MS, sendDueNotifications } from "../../src/core/alerts/send";
import { testRule } from "../../src/core/alerts/test-rule";
import type { Ctx } from "../../src/core/context";
import { digestBatch } from "../../src/core/digest/batch";
import { changeIssues } from "../../src/core/issues/triage";
import { createOrganization } from "../../src/core/orgs/create-org";
import { createProject } from "../../src/core/projects/create-project";
import type { WebhookPoster } from "../../src/core/ports/webhooks";
import { connect, type Store } from "../../src/db/connect";
import type { User } from "../../src/db/schema";
import { setLogLevel } from "../../src/server/log";
import { createWebhookClient } from "../../src/server/webhook-client";
import { runNodeClient } from "../support/clients";
import { DIGEST_OPTIONS } from "../support/digest";
import { errorEnvelope, newEventId } from "../support/envelopes";
import { startFront, type TestFront } from "../support/front";
import { startHookReceiver, type Hook, type HookReceiver } from "../support/hook-receiver";
import { DIALECTS, openTestStore, testCtx, type TestStore } from "../support/stores";

const PUBLIC_URL = "http://telltale.test:8000";
const word = (i: number) => String.fromCharCode(97 + (i % 26)) + String.fromCharCode(97 + Math.floor(i / 26)) + "zz";

async function drain(ctx: Ctx): Promise<void> {
  while ((await digestBatch(ctx, DIGEST_OPTIONS)) > 0);
}

/** What a receiver does with `Sentry-Hook-Signature`: HMAC-SHA256 over `<timestamp>.<body>` with the rule's secret (README "Alerts"). */
function verified(hook: Hook, secret: string): boolean {
  const timestamp = String(hook.headers["sentry-hook-timestamp"]);
  const expected = createHmac("sha256", secret).update(`${timestamp}.${hook.body}`).digest();
  const given = Buffer.from(String(hook.headers["sentry-hook-signature"]), "hex");
  return given.length === expected.length && timingSafeEqual(given, expected);
}

/**
 * Issue 14, webhooks: a local receiver gets the signed legacy-plugin payload (and Slack's and
 * Discord's messages) for a regression raised by @sentry/node; a receiver answering 500 twice
 * gets the third try; a sender stopped between sending and recording is followed by a duplicate
 * with the same `Telltale-Hook-Id`; loopback is refused without the setting; two senders on one
 * database (two pools on PostgreSQL, as two app processes) send each webhook once. Both databases.
 */
describe.each(DIALECTS)("alert webhooks on %s", (dialect) => {
  let store: TestStore;
  let other: Store;
  let hooks: HookReceiver;
  let front: TestFront;
  let owner: User;
  let clock = Date.now();
  const client = createWebhookClient({ allowPrivate: true });
  const on = (s: Store, over: Partial<Ctx> = {}): Ctx => testCtx(s, { webhooks: client, publicUrl: PUBLIC_URL, now: () => clock, ...over });

  beforeAll(async () => {
    setLogLevel("error");
    store = await openTestStore(dialect);
    other =
      dialect === "postgres"
        ? connect({ kind: "postgres", url: store.env.DATABASE_URL!, poolMax: 4 })
        : connect({ kind: "sqlite", file: join(store.env.TELLTALE_DATA_DIR!, "telltale.sqlite") });
    hooks = await startHookReceiver();
    owner = await createUser({ ctx: on(store), input: { email: "hooks@example.com", password: "password-123" } });
    await createOrganization({ ctx: on(store), input: { slug: "acme", owner: owner.email } });
  });
  afterAll(async () => {
    await front?.close();
    await hooks?.close();
    await other?.close();
    await store?.cleanup();
  });

  /** Each test starts at the wall clock: notifications made earlier by a moved clock are not due. */
  async function projectWithRule(slug: string, conditions: string[], actions: Record<string, string>[]) {
    clock = Math.max(clock, Date.now());
    const ctx = on(store);
    const { project, key } = await createProject({ ctx, input: { org: "acme", slug, platform: "node" } });
    const rule = await createRule({
      ctx,
      input: { project, body: { name: `hooks of ${slug}`, conditions: conditions.map((id) => ({ id })), actions }, userId: owner.id },
    });
    return { project, key, rule };
  }

  async function queueError(projectId: number, message: string) {
    await store.queue
      .insertInto("ingest_queue")
      .values({
        project_id: projectId,
        key_id: 0,
        endpoint: "envelope",
        received_at: Date.now(),
        body: errorEnvelope(newEventId(), message),
      })
      .execute();
  }

  it("posts the signed payload, a Slack message and a Discord message for a regression raised by @sentry/node", async () => {
    const ctx = on(store, { now: Date.now });
    const { project, key, rule } = await projectWithRule(
      "node-app",
      [REGRESSION],
      [
        { id: WEBHOOK_ACTION, url: `${hooks.base}/hook` },
        { id: SLACK_ACTION, webhookUrl: `${hooks.base}/slack` },
        { id: DISCORD_ACTION, webhookUrl: `${hooks.base}/discord` },
      ],
    );
    front = await startFront(ctx);
    const dsn = `http://${key.public_key}@127.0.0.1:${front.port}/${project.id}`;
    await runNodeClient(dsn, "basic");
    await drain(ctx);
    const issue = await store.db
      .selectFrom("issues")
      .selectAll()
      .where("project_id", "=", project.id)
      .where("title", "like", "SyntaxError%")
      .executeTakeFirstOrThrow();
    await changeIssues({ ctx, input: { projectIds: [project.id], issueIds: [issue.id], user: owner, change: { action: "resolve" } } });
    await sendDueNotifications(ctx);
    expect(hooks.hooks).toHaveLength(0);

    await runNodeClient(dsn, "basic");
    await drain(ctx);
    await sendDueNotifications(ctx);
    const [hook] = hooks.to("/hook");
    expect(hooks.to("/hook")).toHaveLength(1);
    expect(verified(hook!, rule.secret)).toBe(true);
    expect(verified({ ...hook!, body: hook!.body.replace("SyntaxError", "SyntaxErrox") }, rule.secret)).toBe(false);
    expect(rule.secret).toMatch(/^[0-9a-f]{64}$/);
    expect(hook!.headers["sentry-hook-resource"]).toBe("event_alert");
    expect(Math.abs(Number(hook!.headers["sentry-hook-timestamp"]) - Date.now() / 1000)).toBeLessThan(600);
    const body = JSON.parse(hook!.body) as Record<string, unknown> & { event: { exception: { values: { type: string }[] } } };
    expect(body).toMatchObject({
      id: String(issue.id),
      project: "node-app",
      project_slug: "node-app",
      level: "error",
      message: issue.title,
      url: `${PUBLIC_URL}/orgs/acme/issues/${issue.id}/`,
      triggering_rules: ["hooks of node-app"],
    });
    expect(body.event.exception.values.at(-1)!.type).toBe("SyntaxError");

    const notes = (await ctx.alerts.notifications({ issueId: issue.id })).filter((n) => n.channel !== "email");
    expect(notes.map((n) => [n.channel, n.status, n.attempts, n.changeKind]).sort()).toEqual([
      ["discord", "sent", 1, "regressed"],
      ["slack", "sent", 1, "regressed"],
      ["webhook", "sent", 1, "regressed"],
    ]);
    const webhook = notes.find((n) => n.channel === "webhook")!;
    expect(hook!.headers["telltale-hook-id"]).toBe(webhook.id);
    expect(webhook.target).toBe(`${hooks.base}/hook`);
    const [attempt] = await ctx.alerts.attempts(webhook.id);
    expect([attempt!.status, attempt!.statusCode, attempt!.response]).toEqual(["sent", 200, "ok"]);
    expect(attempt!.durationMs).toBeGreaterThanOrEqual(0);

    const slack = JSON.parse(hooks.to("/slack")[0]!.body) as { text: string; blocks: { type: string }[] };
    expect(slack.text).toContain(`Regression in node-app: ${issue.title}`);
    expect(slack.blocks.map((b) => b.type)).toEqual(["header", "section", "context", "section", "actions"]);
    const discord = JSON.parse(hooks.to("/discord")[0]!.body) as { content: string; embeds: { url: string; description: string }[] };
    expect(discord.content).toContain("**Regression** in node\\-app");
    expect(discord.embeds[0]!.url).toBe(`${PUBLIC_URL}/orgs/acme/issues/${issue.id}/`);
    expect(discord.embeds[0]!.description).toMatch(/node-client\.mjs:\d+/);
    await front.close();
  });

  it("tries a receiver that answers 500 twice a third time, with the same hook id, recording each answer", async () => {
    const { project } = await projectWithRule("flaky", [FIRST_SEEN], [{ id: WEBHOOK_ACTION, url: `${hooks.base}/flaky` }]);
    await queueError(project.id, "flaky receiver");
    await drain(on(store));
    hooks.answer("/flaky", 500, 500);
    const ctx = on(store);
    expect(await sendDueNotifications(ctx)).toMatchObject({ sent: 0, failed: 1 });
    clock += FIRST_RETRY_MS - 1;
    expect(await sendDueNotifications(ctx)).toMatchObject({ sent: 0, failed: 0 });
    clock += 1;
    expect(await sendDueNotifications(ctx)).toMatchObject({ sent: 0, failed: 1 });
    clock += 2 * FIRST_RETRY_MS;
    expect(await sendDueNotifications(ctx)).toMatchObject({ sent: 1, failed: 0 });
    const tries = hooks.to("/flaky");
    expect(tries).toHaveLength(3);
    expect(new Set(tries.map((t) => t.headers["telltale-hook-id"])).size).toBe(1);
    const [note] = (await ctx.alerts.notifications({ projectId: project.id })).filter((n) => n.channel === "webhook");
    expect([note!.status, note!.attempts]).toEqual(["sent", 3]);
    const attempts = await ctx.alerts.attempts(note!.id);
    expect(attempts.map((a) => [a.attempt, a.status, a.statusCode, a.response])).toEqual([
      [1, "failed", 500, "boom 500"],
      [2, "failed", 500, "boom 500"],
      [3, "sent", 200, "ok"],
    ]);
    expect(attempts[0]!.error).toBe("answered 500");
  });

  it("sends again, with the same hook id, what a sender sent but never recorded", async () => {
    const { project } = await projectWithRule("crash", [FIRST_SEEN], [{ id: WEBHOOK_ACTION, url: `${hooks.base}/crash` }]);
    await queueError(project.id, "crash between sending and recording");
    await drain(on(store));
    // The first sender posts the webhook and stops before it records anything.
    const dies: WebhookPoster = {
      async post(request) {
        await client.post(request);
        throw new Error("process stopped");
      },
    };
    await expect(sendDueNotifications(on(store, { webhooks: dies }))).rejects.toThrow("process stopped");
    expect(hooks.to("/crash")).toHaveLength(1);
    const next = on(other);
    clock += CLAIM_LEASE_MS - 1000;
    expect(await sendDueNotifications(next)).toMatchObject({ sent: 0, failed: 0 });
    clock += 2000;
    expect(await sendDueNotifications(next)).toMatchObject({ sent: 1 });
    const [first, second] = hooks.to("/crash");
    expect(second!.headers["telltale-hook-id"]).toBe(first!.headers["telltale-hook-id"]);
    const [note] = (await next.alerts.notifications({ projectId: project.id })).filter((n) => n.channel === "webhook");
    expect(first!.headers["telltale-hook-id"]).toBe(note!.id);
  });

  it("refuses a loopback URL without TELLTALE_ALERTS_ALLOW_PRIVATE_URLS, at once and for good", async () => {
    const { project, rule } = await projectWithRule("private", [FIRST_SEEN], [{ id: WEBHOOK_ACTION, url: `${hooks.base}/private` }]);
    await queueError(project.id, "an issue to test with");
    await drain(on(store));
    const ctx = on(store, { webhooks: createWebhookClient({ allowPrivate: false }) });
    // The first-seen notification and a test of the rule: both refused.
    const tested = await testRule({ ctx, input: { project, ruleId: String(rule.id) } });
    expect(tested.map((n) => n.id)).toEqual([expect.stringMatching(/^test-[0-9a-f-]{36}\.rule-\d+\.webhook-[0-9a-f]{16}$/)]);
    expect(await sendDueNotifications(ctx)).toMatchObject({ sent: 0, failed: 2 });
    clock += 24 * 3600_000;
    expect(await sendDueNotifications(ctx)).toMatchObject({ sent: 0, failed: 0 });
    expect(hooks.to("/private")).toHaveLength(0);
    const notes = (await ctx.alerts.notifications({ projectId: project.id })).filter((n) => n.channel === "webhook");
    expect(notes.map((n) => [n.status, n.attempts, n.lastError])).toEqual([
      ["failed", 1, "refused: 127.0.0.1 resolves to 127.0.0.1 is a loopback address (TELLTALE_ALERTS_ALLOW_PRIVATE_URLS allows it)"],
      ["failed", 1, "refused: 127.0.0.1 resolves to 127.0.0.1 is a loopback address (TELLTALE_ALERTS_ALLOW_PRIVATE_URLS allows it)"],
    ]);
  });

  it("sends each webhook once when two senders run at the same time", async () => {
    const { project } = await projectWithRule("many", [FIRST_SEEN], [{ id: WEBHOOK_ACTION, url: `${hooks.base}/many` }]);
    for (let i = 0; i < 45; i++) await queueError(project.id, `problem ${word(i)}`);
    await drain(on(store));
    clock += 1000;
    const [a, b] =
      dialect === "postgres"
        ? await Promise.all([sendDueNotifications(on(store), 10), sendDueNotifications(on(other), 10)])
        : [await sendDueNotifications(on(store), 10), await sendDueNotifications(on(other), 10)];
    // 45 webhooks, and 45 emails of the project's default rule recorded as not sent (no SMTP).
    expect([a.sent + b.sent, a.failed + b.failed, a.notSent + b.notSent]).toEqual([45, 0, 45]);
    const ids = hooks.to("/many").map((h) => h.headers["telltale-hook-id"]);
    expect(ids).toHaveLength(45);
    expect(new Set(ids).size).toBe(45);
    console.log(`[alert webhooks ${dialect}] 45 webhooks: ${a.sent} by one sender, ${b.sent} by the other`);
  });
});
