import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { parseSettings } from "../../src/config/settings";
import { createUser } from "../../src/core/accounts/create-user";
import { sendDueNotifications } from "../../src/core/alerts/send";
import type { Ctx } from "../../src/core/context";
import { digestBatch } from "../../src/core/digest/batch";
import { changeIssues, type IssueChange } from "../../src/core/issues/triage";
import { createOrganization } from "../../src/core/orgs/create-org";
import { driveInProcessConsumers } from "../../src/core/outbox/in-process";
import { sendTestEmail } from "../../src/core/preferences/email-setup";
import { saveNotificationChoices, saveProjectAlerts } from "../../src/core/preferences/save";
import { createProject } from "../../src/core/projects/create-project";
import { WORKFLOW_CONSUMER, workflowConsumer } from "../../src/core/workflow/consumer";
import type { User } from "../../src/db/schema";
import { setLogLevel } from "../../src/server/log";
import { createMailer } from "../../src/server/mailer";
import { DIGEST_OPTIONS } from "../support/digest";
import { errorEnvelope, newEventId } from "../support/envelopes";
import { startSmtp, type TestSmtp } from "../support/smtp";
import { DIALECTS, openTestStore, testCtx, type TestStore } from "../support/stores";

const PUBLIC_URL = "http://telltale.test:8000";
const ALL_ON = { issueAlerts: true, assigned: true, comments: true, resolutions: true };

/**
 * Issue 14, item 5: per-user preferences and workflow emails, through a real SMTP server and
 * parsed with mailparser. Issue alerts skip people who switched them off (everywhere or for the
 * project); an assignment emails the assignee, a comment and a resolution the issue's
 * participants, never their author, and only as each person chose. Both databases.
 */
describe.each(DIALECTS)("notification preferences and workflow emails on %s", (dialect) => {
  let store: TestStore;
  let ctx: Ctx;
  let smtp: TestSmtp;
  let projectId = 0;
  let issueId = 0;
  const users: Record<string, User> = {};
  const email = (who: string) => `${who}@example.com`;

  async function newIssue(message: string): Promise<number> {
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
    while ((await digestBatch(ctx, DIGEST_OPTIONS)) > 0);
    const issue = await store.db.selectFrom("issues").select("id").where("title", "like", `%${message}%`).executeTakeFirstOrThrow();
    return issue.id;
  }

  const triage = (who: string, change: IssueChange) =>
    changeIssues({ ctx, input: { projectIds: [projectId], issueIds: [issueId], user: users[who]!, change } });

  /** Notification rows of an issue change kind, as [recipient, kind], oldest first. */
  async function rows(issue: number, kind: string) {
    const all = await ctx.alerts.notifications({ issueId: issue });
    return all
      .filter((n) => n.changeKind === kind)
      .map((n) => n.target)
      .sort();
  }

  beforeAll(async () => {
    setLogLevel("error");
    store = await openTestStore(dialect);
    smtp = await startSmtp();
    ctx = testCtx(store, {
      mailer: createMailer(parseSettings({ TELLTALE_SMTP_URL: smtp.url, TELLTALE_URL: PUBLIC_URL })),
      publicUrl: PUBLIC_URL,
    });
    for (const [who, name] of [
      ["olive", "Olive Owner"],
      ["mia", "Mia"],
      ["max", "Max"],
      ["nia", "Nia"],
    ])
      users[who!] = await createUser({ ctx, input: { email: email(who!), password: "password-123", name: name! } });
    const org = await createOrganization({ ctx, input: { slug: "acme", owner: email("olive") } });
    const team = (await ctx.directory.teams(org.id)).find((t) => t.team.isDefault)?.team;
    for (const who of ["mia", "max", "nia"]) await ctx.directory.addMember(org.id, users[who]!.id, "member", [team!.id], Date.now());
    projectId = (await createProject({ ctx, input: { org: "acme", slug: "node-app", platform: "node" } })).project.id;
  });
  afterAll(async () => {
    await smtp?.close();
    await store?.cleanup();
  });

  it("leaves out of issue alerts whoever switched them off, everywhere or for the project", async () => {
    expect(await ctx.userNotifications.preferences(users.olive!.id)).toEqual({ choices: ALL_ON, projects: [] });
    await saveNotificationChoices({ ctx, user: users.mia!, input: { ...ALL_ON, issueAlerts: false } });
    await saveProjectAlerts({ ctx, user: users.max!, input: { projectId, issueAlerts: "off" } });
    // Nia switched alerts off everywhere but on for this project: the project decides.
    await saveNotificationChoices({ ctx, user: users.nia!, input: { ...ALL_ON, issueAlerts: false } });
    await saveProjectAlerts({ ctx, user: users.nia!, input: { projectId, issueAlerts: "on" } });
    issueId = await newIssue("preferences decide who hears");
    expect(await rows(issueId, "created")).toEqual([email("nia"), email("olive")]);
    // Back to their own choice for the project: max gets the next one.
    await saveProjectAlerts({ ctx, user: users.max!, input: { projectId, issueAlerts: "default" } });
    expect((await ctx.userNotifications.preferences(users.max!.id)).projects).toEqual([]);
    expect(await rows(await newIssue("max hears this one"), "created")).toEqual([email("max"), email("nia"), email("olive")]);
    await sendDueNotifications(ctx);
  });

  it("refuses a project override for a project the person does not see", async () => {
    await expect(saveProjectAlerts({ ctx, user: users.mia!, input: { projectId: 999_999, issueAlerts: "off" } })).rejects.toThrow(
      /does not exist/,
    );
    await expect(saveProjectAlerts({ ctx, user: users.mia!, input: { projectId, issueAlerts: "loud" } })).rejects.toThrow(/on, off/);
  });

  it("emails the assignee, not someone who assigns themselves", async () => {
    await triage("mia", { action: "assign", assigneeId: users.mia!.id });
    expect(await rows(issueId, "assigned")).toEqual([]);
    await triage("olive", { action: "assign", assigneeId: users.max!.id });
    await triage("olive", { action: "assign", assigneeId: users.mia!.id });
    expect(await rows(issueId, "assigned")).toEqual([email("max"), email("mia")]);
    expect(await sendDueNotifications(ctx)).toMatchObject({ sent: 2, failed: 0 });
    const mail = await smtp.nextTo(email("mia"));
    const issue = await store.db.selectFrom("issues").selectAll().where("id", "=", issueId).executeTakeFirstOrThrow();
    expect(mail.subject).toBe(`[node-app] Assigned to you: ${issue.title}`);
    expect(mail.text).toContain(`Olive Owner assigned NODE-APP-${issue.short_number.toString(36).toUpperCase()} to you`);
    const link = `${PUBLIC_URL}/orgs/acme/issues/${issueId}/`;
    expect(mail.text).toContain(link);
    expect(mail.html).toContain(`href="${link}"`);
    expect(mail.text).toContain(`${PUBLIC_URL}/account#notifications`);
    expect(mail.messageId).toMatch(/^<alert\.issue-change-\d+\.workflow\.user-\d+@telltale\.test>$/);
  });

  it("emails a comment to the participants but its author, its text as typed and escaped in HTML", async () => {
    const before = smtp.countTo(email("mia"));
    await triage("max", { action: "comment", text: "Seen it <b>twice</b>\non staging" });
    // Max commented; Mia is the assignee; Olive has taken no part yet.
    expect(await rows(issueId, "commented")).toEqual([email("mia")]);
    await sendDueNotifications(ctx);
    const mail = await smtp.nextTo(email("mia"), before);
    expect(mail.subject).toMatch(/^\[node-app\] New comment on NODE-APP-\w+: /);
    expect(mail.text).toContain("Max commented on NODE-APP-");
    expect(mail.text).toContain("    Seen it <b>twice</b>\n    on staging");
    expect(mail.html).toContain("Seen it &lt;b&gt;twice&lt;/b&gt;\non staging");
    expect(mail.html).not.toContain("<b>twice");

    // Olive's comment goes to the assignee and the earlier commenter, not to Olive.
    await triage("olive", { action: "comment", text: "On it" });
    const comments = await ctx.alerts.notifications({ issueId });
    expect(
      comments
        .filter((n) => n.changeKind === "commented")
        .map((n) => n.target)
        .sort(),
    ).toEqual([email("max"), email("mia"), email("mia")]);
    // Someone who bookmarked the issue takes part too.
    await triage("nia", { action: "bookmark", on: true });
    await triage("mia", { action: "comment", text: "thanks" });
    const last = (await ctx.alerts.notifications({ issueId })).filter(
      (n) => n.changeKind === "commented" && n.changeSeq === Math.max(...comments.map((c) => c.changeSeq)) + 1,
    );
    expect(last.map((n) => n.target).sort()).toEqual([email("max"), email("nia"), email("olive")]);
    await sendDueNotifications(ctx);
  });

  it("emails a resolution to the participants who want resolutions", async () => {
    await saveNotificationChoices({ ctx, user: users.max!, input: { ...ALL_ON, resolutions: false } });
    const before = smtp.countTo(email("mia"));
    await triage("olive", { action: "resolve" });
    // Mia (assignee), Max (commenter, resolutions off), Nia (bookmark), Olive (the author).
    expect(await rows(issueId, "resolved")).toEqual([email("mia"), email("nia")]);
    await sendDueNotifications(ctx);
    const mail = await smtp.nextTo(email("mia"), before);
    expect(mail.subject).toMatch(/^\[node-app\] Resolved: /);
    expect(mail.text).toContain("Olive Owner resolved NODE-APP-");
  });

  it("makes no second notification of a change read twice", async () => {
    const before = await ctx.alerts.notifications({ projectId });
    // Back to before the resolution (the issue's participants are read as they are now, unchanged since).
    const resolved = Math.max(...before.filter((n) => n.changeKind === "resolved").map((n) => n.changeSeq));
    await store.db
      .updateTable("outbox_positions")
      .set({ seq: resolved - 1 })
      .where("consumer", "=", WORKFLOW_CONSUMER)
      .execute();
    expect(await driveInProcessConsumers(ctx, [workflowConsumer])).toBeGreaterThan(0);
    expect((await ctx.alerts.notifications({ projectId })).length).toBe(before.length);
    expect(await sendDueNotifications(ctx)).toEqual({ sent: 0, failed: 0, notSent: 0 });
  });

  it("sends a test email to oneself, and says why not without SMTP", async () => {
    const before = smtp.countTo(email("nia"));
    expect(await sendTestEmail({ ctx, user: users.nia! })).toEqual({ sent: true, to: email("nia") });
    const mail = await smtp.nextTo(email("nia"), before);
    expect(mail.subject).toBe("Telltale test email");
    expect(mail.text).toContain(`${PUBLIC_URL}/account#notifications`);
    expect(await sendTestEmail({ ctx: { ...ctx, mailer: null }, user: users.nia! })).toEqual({
      sent: false,
      to: email("nia"),
      reason: "no SMTP server is configured (TELLTALE_SMTP_URL)",
    });
  });
});
