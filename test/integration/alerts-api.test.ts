import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createUser } from "../../src/core/accounts/create-user";
import { sendDueNotifications } from "../../src/core/alerts/send";
import type { Ctx } from "../../src/core/context";
import { digestBatch } from "../../src/core/digest/batch";
import { changeIssues } from "../../src/core/issues/triage";
import { createOrganization } from "../../src/core/orgs/create-org";
import { createProject } from "../../src/core/projects/create-project";
import { createToken } from "../../src/core/tokens/tokens";
import type { User } from "../../src/db/schema";
import { setLogLevel } from "../../src/server/log";
import { startApiServer } from "../support/api-server";
import { DIGEST_OPTIONS } from "../support/digest";
import { errorEnvelope, newEventId } from "../support/envelopes";
import { Mailbox } from "../support/mailbox";
import { DIALECTS, openTestStore, testCtx, type TestStore } from "../support/stores";

const REGRESSION = "sentry.rules.conditions.regression_event.RegressionEventCondition";
const REAPPEARED = "sentry.rules.conditions.reappeared_event.ReappearedEventCondition";
const LEVEL = "sentry.rules.filters.level.LevelFilter";
const EMAIL = "sentry.mail.actions.NotifyEmailAction";

/**
 * Issue 14: the project rules endpoints in Sentry's paths and shape, through the real router on
 * both databases; a rule created there in Sentry's payload fires on a regression, once per
 * `frequency`.
 */
describe.each(DIALECTS)("the issue alert rules web API on %s", (dialect) => {
  let store: TestStore;
  let ctx: Ctx;
  let mailbox: Mailbox;
  let api: { base: string; close(): Promise<void> };
  const users: Record<string, User> = {};
  const tokens: Record<string, string> = {};
  let projectId = 0;
  let ruleId = "";
  let otherOrgId = 0;

  async function call(who: string, method: string, path: string, body?: unknown) {
    const res = await fetch(`${api.base}/api/0${path}`, {
      method,
      headers: { authorization: `Bearer ${tokens[who]}`, "content-type": "application/json" },
      ...(body !== undefined ? { body: JSON.stringify(body) } : {}),
    });
    const text = await res.text();
    return { status: res.status, json: (text ? JSON.parse(text) : null) as Record<string, unknown> & Record<string, unknown>[] };
  }

  beforeAll(async () => {
    setLogLevel("error");
    store = await openTestStore(dialect);
    mailbox = new Mailbox();
    ctx = testCtx(store, { mailer: mailbox });
    for (const who of ["olive", "mel", "out"]) {
      users[who] = await createUser({ ctx, input: { email: `${who}@example.com`, password: "password-123" } });
      tokens[who] = (await createToken({ ctx, input: { user: `${who}@example.com` } })).token;
    }
    tokens.readonly = (await createToken({ ctx, input: { user: "olive@example.com", scopes: ["alerts:read"] } })).token;
    const org = await createOrganization({ ctx, input: { slug: "acme", owner: "olive@example.com" } });
    otherOrgId = (await createOrganization({ ctx, input: { slug: "other", owner: "out@example.com" } })).id;
    await ctx.directory.addMember(org.id, users.mel!.id, "member", [], Date.now());
    projectId = (await createProject({ ctx, input: { org: "acme", slug: "api" } })).project.id;
    api = await startApiServer(ctx);
  });
  afterAll(async () => {
    await api?.close();
    await store?.cleanup();
  });

  it("creates a rule from Sentry's payload and answers it in Sentry's shape", async () => {
    const res = await call("olive", "POST", "/projects/acme/api/rules/", {
      name: "Regressions to Mel",
      actionMatch: "any",
      filterMatch: "all",
      frequency: 5,
      environment: null,
      owner: null,
      projects: ["api"],
      conditions: [{ id: REGRESSION, name: "The issue changes state from resolved to unresolved" }, { id: REAPPEARED }],
      filters: [{ id: LEVEL, match: "gte", level: "40" }],
      actions: [{ id: EMAIL, targetType: "Member", targetIdentifier: String(users.mel!.id), fallthroughType: "ActiveMembers" }],
    });
    expect(res.status, JSON.stringify(res.json)).toBe(201);
    ruleId = String(res.json.id);
    expect(res.json).toMatchObject({
      name: "Regressions to Mel",
      actionMatch: "any",
      filterMatch: "all",
      frequency: 5,
      environment: null,
      status: "active",
      projects: ["api"],
      conditions: [{ id: REGRESSION }, { id: REAPPEARED }],
      filters: [{ id: LEVEL, match: "gte", level: "40", name: "The event's level is greater than or equal to error" }],
      actions: [{ id: EMAIL, targetType: "Member", targetIdentifier: users.mel!.id }],
      // Made with Olive's personal token: Sentry's `{id, name, email}` of its maker.
      createdBy: { id: users.olive!.id, name: "olive@example.com", email: "olive@example.com" },
    });
    const list = await call("mel", "GET", "/projects/acme/api/rules/");
    expect(list.status).toBe(200);
    expect(list.json.map((r) => r.name)).toEqual(["Send a notification for new issues", "Regressions to Mel"]);
    const read = (await call("mel", "GET", `/projects/acme/api/rules/${ruleId}/`)).json;
    expect([read.name, read.createdBy]).toEqual([
      "Regressions to Mel",
      { id: users.olive!.id, name: "olive@example.com", email: "olive@example.com" },
    ]);
  });

  it("refuses unknown condition, filter and action ids with a 400 that names them", async () => {
    const base = { name: "x", conditions: [{ id: REGRESSION }], actions: [{ id: EMAIL, targetType: "IssueOwners" }] };
    const unknown = await call("olive", "POST", "/projects/acme/api/rules/", {
      ...base,
      conditions: [{ id: "sentry.rules.conditions.event_attribute.EventAttributeCondition" }],
    });
    expect(unknown.status).toBe(400);
    expect(String(unknown.json.detail)).toMatch(
      /conditions\.0\.id: unknown condition 'sentry\.rules\.conditions\.event_attribute\.EventAttributeCondition'/,
    );
    const filter = await call("olive", "POST", "/projects/acme/api/rules/", {
      ...base,
      filters: [{ id: "sentry.rules.filters.issue_occurrences.IssueOccurrencesFilter", value: 10 }],
    });
    expect(filter.status).toBe(400);
    expect(String(filter.json.detail)).toMatch(
      /^filters\.0\.id: unknown filter 'sentry\.rules\.filters\.issue_occurrences\.IssueOccurrencesFilter'; Telltale knows sentry\.rules\.filters\.level\.LevelFilter, sentry\.rules\.filters\.tagged_event\.TaggedEventFilter, /,
    );
    const level = await call("olive", "POST", "/projects/acme/api/rules/", { ...base, filters: [{ id: LEVEL, match: "gt", level: "40" }] });
    expect([level.status, String(level.json.detail)]).toEqual([400, "filters.0.match: match is eq, gte or lte"]);
    const outsider = await call("olive", "POST", "/projects/acme/api/rules/", {
      ...base,
      actions: [{ id: EMAIL, targetType: "Member", targetIdentifier: users.out!.id }],
    });
    expect([outsider.status, String(outsider.json.detail)]).toEqual([
      400,
      `actions.0.targetIdentifier: user ${users.out!.id} is not a member of this organization`,
    ]);
    const otherTeam = (await ctx.directory.teams(otherOrgId))[0]!.team.id;
    const team = await call("olive", "POST", "/projects/acme/api/rules/", {
      ...base,
      actions: [{ id: EMAIL, targetType: "Team", targetIdentifier: otherTeam }],
    });
    expect([team.status, String(team.json.detail)]).toEqual([
      400,
      `actions.0.targetIdentifier: team ${otherTeam} is not a team of this organization`,
    ]);
    expect((await call("olive", "POST", "/projects/acme/api/rules/", { ...base, actions: [] })).status).toBe(400);
    expect((await call("olive", "GET", "/projects/acme/api/rules/")).json).toHaveLength(2);
  });

  it("lets members read rules but not change them, and a read-only token read only", async () => {
    expect((await call("mel", "POST", "/projects/acme/api/rules/", { name: "mine" })).status).toBe(403);
    expect((await call("mel", "DELETE", `/projects/acme/api/rules/${ruleId}/`)).status).toBe(403);
    expect((await call("readonly", "GET", "/projects/acme/api/rules/")).status).toBe(200);
    expect((await call("readonly", "PUT", `/projects/acme/api/rules/${ruleId}/`, { frequency: 10 })).status).toBe(403);
    expect((await call("out", "GET", "/projects/acme/api/rules/")).status).toBe(404);
  });

  it("fires the API's rule on a regression, once per frequency", async () => {
    const emit = async (message: string) => {
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
    };
    const toMel = () => mailbox.sent.filter((m) => m.to === "mel@example.com");
    await emit("payment failed");
    const issue = await store.db.selectFrom("issues").select("id").where("project_id", "=", projectId).executeTakeFirstOrThrow();
    // An event regresses an issue when it is newer than the resolution: a few ms apart, as in life.
    const resolve = async () => {
      await changeIssues({
        ctx,
        input: { projectIds: [projectId], issueIds: [issue.id], user: users.olive!, change: { action: "resolve" } },
      });
      const resolvedBy = Date.now();
      while (Date.now() <= resolvedBy) await new Promise((r) => setTimeout(r, 1));
    };
    await sendDueNotifications(ctx);
    // The default rule told the project's members (the owner) about the new issue; Mel's rule is for regressions.
    expect(mailbox.sent.map((m) => [m.to, m.subject])).toEqual([["olive@example.com", "[api] New issue: payment failed"]]);
    await resolve();
    await emit("payment failed");
    await sendDueNotifications(ctx);
    expect(toMel().map((m) => m.subject)).toEqual(["[api] Regression: payment failed"]);
    expect(toMel()[0]!.messageId).toMatch(/^<alert\.issue-change-\d+\.rule-\d+\.user-\d+@telltale\.test>$/);
    // Within the rule's 5 minutes: a second regression notifies nobody.
    await resolve();
    await emit("payment failed");
    await sendDueNotifications(ctx);
    expect(toMel()).toHaveLength(1);
    // Five minutes later it does.
    await store.db
      .updateTable("alert_rule_fires")
      .set((eb) => ({ fired_at: eb("fired_at", "-", 5 * 60_000) }))
      .execute();
    await resolve();
    await emit("payment failed");
    await sendDueNotifications(ctx);
    expect(toMel()).toHaveLength(2);
  });

  it("emails the members of a team a rule names", async () => {
    const acme = (await store.db.selectFrom("organizations").select("id").where("slug", "=", "acme").executeTakeFirstOrThrow()).id;
    const ops = await ctx.directory.insertTeam(acme, { slug: "ops", name: "Ops" }, users.mel!.id, Date.now());
    const res = await call("olive", "POST", "/projects/acme/api/rules/", {
      name: "New issues to Ops",
      conditions: [{ id: "sentry.rules.conditions.first_seen_event.FirstSeenEventCondition" }],
      actions: [{ id: EMAIL, targetType: "Team", targetIdentifier: ops!.id }],
    });
    expect(res.status).toBe(201);
    await store.queue
      .insertInto("ingest_queue")
      .values({
        project_id: projectId,
        key_id: 0,
        endpoint: "envelope",
        received_at: Date.now(),
        body: errorEnvelope(newEventId(), "ops pager down"),
      })
      .execute();
    while ((await digestBatch(ctx, DIGEST_OPTIONS)) > 0);
    await sendDueNotifications(ctx);
    const about = mailbox.sent.filter((m) => m.subject === "[api] New issue: ops pager down").map((m) => m.to);
    expect(about.sort()).toEqual(["mel@example.com", "olive@example.com"]);
    expect((await call("olive", "DELETE", `/projects/acme/api/rules/${String(res.json.id)}/`)).status).toBe(204);
  });

  it("changes a rule with a partial PUT, switches the default rule off, and deletes a rule", async () => {
    const put = await call("olive", "PUT", `/projects/acme/api/rules/${ruleId}/`, { name: "Regressions, hourly", frequency: 60 });
    expect([put.status, put.json.name, put.json.frequency, put.json.actionMatch]).toEqual([200, "Regressions, hourly", 60, "any"]);
    const rules = (await call("olive", "GET", "/projects/acme/api/rules/")).json;
    const defaultId = String(rules.find((r) => r.name === "Send a notification for new issues")!.id);
    const off = await call("olive", "PUT", `/projects/acme/api/rules/${defaultId}/`, { status: "disabled" });
    expect([off.status, off.json.status]).toEqual([200, "disabled"]);
    expect((await call("olive", "PUT", `/projects/acme/api/rules/${defaultId}/`, { frequency: 1 })).status).toBe(400);
    expect((await call("olive", "DELETE", `/projects/acme/api/rules/${ruleId}/`)).status).toBe(204);
    expect((await call("olive", "GET", `/projects/acme/api/rules/${ruleId}/`)).status).toBe(404);
    expect((await call("olive", "GET", "/projects/acme/api/rules/abc/")).status).toBe(404);
  });
});
