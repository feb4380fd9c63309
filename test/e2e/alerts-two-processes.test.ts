import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createUser } from "../../src/core/accounts/create-user";
import { createOrganization } from "../../src/core/orgs/create-org";
import { createProject } from "../../src/core/projects/create-project";
import { errorEnvelope, newEventId, send } from "../support/envelopes";
import { startServer, type TestServer } from "../support/server";
import { startSmtp, type TestSmtp } from "../support/smtp";
import { openTestStore, type TestStore, testCtx } from "../support/stores";
import { waitFor } from "../support/wait";

const OWNER = "olive@example.com";
const ISSUES = 24;
/** A word per issue: grouping takes numbers in messages for parameters, so numbered messages would be one issue. */
const word = (i: number) => `module${String.fromCharCode(97 + i).repeat(3)}`;

/**
 * Issue 14: two app processes on one PostgreSQL database, each running its alert sender on its
 * one-second timer. Every new issue makes one notification (the default rule emails the project's
 * only member); in normal operation each is claimed by one sender (`FOR UPDATE SKIP LOCKED` and a
 * lease) and arrives in the inbox once, whichever process sends it.
 */
describe("alert notifications with two app processes on one PostgreSQL", () => {
  let store: TestStore;
  let smtp: TestSmtp;
  let servers: TestServer[] = [];
  let publicKey = "";
  let projectId = 0;

  beforeAll(async () => {
    store = await openTestStore("postgres");
    const ctx = testCtx(store);
    await createUser({ ctx, input: { email: OWNER, password: "password-123", name: "Olive" } });
    await createOrganization({ ctx, input: { slug: "acme", name: "Acme", owner: OWNER } });
    const { project, key } = await createProject({ ctx, input: { org: "acme", slug: "web", platform: "node" } });
    publicKey = key.public_key;
    projectId = project.id;
    smtp = await startSmtp();
    const env = { ...store.env, TELLTALE_SELF_DSN: "off", TELLTALE_SMTP_URL: smtp.url };
    servers = await Promise.all([startServer(env), startServer(env)]);
  });

  afterAll(async () => {
    if (process.env.DEBUG_E2E) for (const s of servers) console.log(s.logs());
    for (const s of servers) await s.stop();
    await smtp?.close();
    await store?.cleanup();
  });

  it("sends each notification once, whichever process claims it", { timeout: 150_000 }, async () => {
    // New issues arrive at both processes, so both digests write changes and both senders are busy.
    for (let i = 0; i < ISSUES; i++) {
      const server = servers[i % 2]!;
      const reply = await send(`${server.url}/api/${projectId}/envelope/?sentry_key=${publicKey}`, {
        method: "POST",
        body: errorEnvelope(newEventId(), `Distinct failure in ${word(i)}`),
      });
      expect(reply.status).toBe(200);
    }
    const progress = async () => {
      const rows = await store.db.selectFrom("alert_notifications").select(["status", "attempts", "last_error"]).execute();
      return `${smtp.countTo(OWNER)} emails; notifications: ${JSON.stringify(rows.slice(0, 3))} (${rows.length})`;
    };
    await waitFor(async () => (smtp.countTo(OWNER) >= ISSUES ? true : null), 90_000, `${ISSUES} alert emails`).catch(async (e: unknown) => {
      throw new Error(`${String(e)}: ${await progress()}`);
    });
    // A second copy could only come from a sender that finds a notification still unsent. Every row
    // sent once (checked below) means none is left to send; one more issue, mailed after the others,
    // shows the senders kept running in the meantime — a condition to wait on instead of a while.
    const last = await send(`${servers[1]!.url}/api/${projectId}/envelope/?sentry_key=${publicKey}`, {
      method: "POST",
      body: errorEnvelope(newEventId(), "Distinct failure in closing"),
    });
    expect(last.status).toBe(200);
    await waitFor(async () => (smtp.messages.some((m) => m.subject?.includes("closing")) ? true : null), 90_000, "the closing email");

    expect(smtp.countTo(OWNER)).toBe(ISSUES + 1);
    const ids = smtp.messages.map((m) => m.messageId ?? "");
    expect(new Set(ids).size).toBe(ISSUES + 1);
    const subjects = smtp.messages.map((m) => m.subject?.match(/Distinct failure in (\w+)/)?.[1]);
    expect(new Set(subjects).size).toBe(ISSUES + 1);

    const rows = await store.db.selectFrom("alert_notifications").select(["status", "attempts"]).execute();
    expect(rows).toHaveLength(ISSUES + 1);
    expect(rows.every((r) => r.status === "sent" && r.attempts === 1)).toBe(true);
    const attempts = await store.db.selectFrom("alert_attempts").select("notification_id").execute();
    expect(attempts).toHaveLength(ISSUES + 1);
  });
});
