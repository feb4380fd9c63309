import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { parseSettings } from "../../src/config/settings";
import { createUser } from "../../src/core/accounts/create-user";
import { alertMessageId, CLAIM_LEASE_MS, sendDueNotifications } from "../../src/core/alerts/send";
import type { Ctx } from "../../src/core/context";
import { digestBatch } from "../../src/core/digest/batch";
import { createOrganization } from "../../src/core/orgs/create-org";
import { createProject } from "../../src/core/projects/create-project";
import { connect, type Store } from "../../src/db/connect";
import { createMailer } from "../../src/server/mailer";
import { setLogLevel } from "../../src/server/log";
import { DIGEST_OPTIONS } from "../support/digest";
import { errorEnvelope, newEventId } from "../support/envelopes";
import { startSmtp, type TestSmtp } from "../support/smtp";
import { DIALECTS, openTestStore, testCtx, type TestStore } from "../support/stores";

const PUBLIC_URL = "http://telltale.test:8000";
/** Distinct letters for each message: numbers in messages are parameterized and would group into one issue. */
const word = (i: number) => String.fromCharCode(97 + (i % 26)) + String.fromCharCode(97 + Math.floor(i / 26)) + "zz";

/**
 * Issue 14, delivery: two senders on one database share the due notifications without sending
 * one twice (PostgreSQL: two connection pools, as two app processes have), and a sender that
 * stops after sending but before recording is followed, once its lease ends, by a duplicate
 * carrying the same Message-ID.
 */
describe.each(DIALECTS)("alert senders on %s", (dialect) => {
  let store: TestStore;
  let other: Store;
  let smtp: TestSmtp;
  let clock = 0;
  const settings = () => parseSettings({ TELLTALE_SMTP_URL: smtp.url, TELLTALE_URL: PUBLIC_URL });
  const senderOn = (s: Store): Ctx => testCtx(s, { mailer: createMailer(settings()), publicUrl: PUBLIC_URL, now: () => clock });

  beforeAll(async () => {
    setLogLevel("error");
    store = await openTestStore(dialect);
    // A second connection to the same database, as a second app process has.
    other =
      dialect === "postgres"
        ? connect({ kind: "postgres", url: store.env.DATABASE_URL!, poolMax: 4 })
        : connect({ kind: "sqlite", file: join(store.env.TELLTALE_DATA_DIR!, "telltale.sqlite") });
    smtp = await startSmtp();
  });
  afterAll(async () => {
    await other?.close();
    await smtp?.close();
    await store?.cleanup();
  });

  async function newIssues(org: string, owner: string, count: number): Promise<number> {
    const ctx = testCtx(store);
    await createUser({ ctx, input: { email: owner, password: "password-123" } });
    await createOrganization({ ctx, input: { slug: org, owner } });
    const { project } = await createProject({ ctx, input: { org, slug: "p" } });
    for (let i = 0; i < count; i++)
      await store.queue
        .insertInto("ingest_queue")
        .values({
          project_id: project.id,
          key_id: 0,
          endpoint: "envelope",
          received_at: Date.now(),
          body: errorEnvelope(newEventId(), `problem ${word(i)}`),
        })
        .execute();
    while ((await digestBatch(ctx, DIGEST_OPTIONS)) > 0);
    clock = Date.now() + 1000;
    return project.id;
  }

  it("sends each notification once when two senders run at the same time", async () => {
    const owner = "two@example.com";
    const projectId = await newIssues("two", owner, 45);
    expect((await testCtx(store).alerts.notifications({ projectId })).length).toBe(45);
    // SQLite has one writer, and two connections in one process would wait on each other's
    // lock synchronously: there the two senders take turns; PostgreSQL runs them at once.
    const [a, b] =
      dialect === "postgres"
        ? await Promise.all([sendDueNotifications(senderOn(store), 10), sendDueNotifications(senderOn(other), 10)])
        : [await sendDueNotifications(senderOn(store), 10), await sendDueNotifications(senderOn(other), 10)];
    expect(a.sent + b.sent).toBe(45);
    expect(a.failed + b.failed + a.notSent + b.notSent).toBe(0);
    await smtp.nextTo(owner, 44);
    const ids = smtp.messages.filter((m) => m.to && !Array.isArray(m.to) && m.to.text === owner).map((m) => m.messageId);
    expect(ids).toHaveLength(45);
    expect(new Set(ids).size).toBe(45);
    const notes = await testCtx(store).alerts.notifications({ projectId });
    expect(notes.every((n) => n.status === "sent" && n.attempts === 1)).toBe(true);
    console.log(`[alert senders ${dialect}] 45 notifications: ${a.sent} by one sender, ${b.sent} by the other`);
  });

  it("sends again, with the same Message-ID, what a sender claimed and sent but never recorded", async () => {
    const owner = "crash@example.com";
    const projectId = await newIssues("crash", owner, 1);
    // The first sender claims the notification, sends it and stops before recording it.
    const crashed = senderOn(store);
    const [claimed] = await crashed.alerts.claimDue(clock, 10, CLAIM_LEASE_MS);
    expect(claimed?.projectId).toBe(projectId);
    const messageId = alertMessageId(claimed!.id, PUBLIC_URL);
    await crashed.mailer!.send({ to: owner, subject: "sent before the crash", text: "x", html: "<p>x</p>", messageId });
    // Another sender leaves it alone while the lease lasts, then takes it up.
    const next = senderOn(other);
    clock += CLAIM_LEASE_MS - 1000;
    expect(await sendDueNotifications(next)).toEqual({ sent: 0, failed: 0, notSent: 0 });
    clock += 2000;
    expect(await sendDueNotifications(next)).toEqual({ sent: 1, failed: 0, notSent: 0 });
    const second = await smtp.nextTo(owner, 1);
    expect(smtp.countTo(owner)).toBe(2);
    expect(second.messageId).toBe(messageId);
    expect(second.messageId).toBe(`<alert.${claimed!.id}@telltale.test>`);
  });
});
