import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createUser } from "../../src/core/accounts/create-user";
import type { Ctx } from "../../src/core/context";
import { digestBatch } from "../../src/core/digest/batch";
import { changeIssues } from "../../src/core/issues/triage";
import { createOrganization } from "../../src/core/orgs/create-org";
import { createProject } from "../../src/core/projects/create-project";
import { createToken } from "../../src/core/tokens/tokens";
import type { User } from "../../src/db/schema";
import { setLogLevel } from "../../src/server/log";
import { startApiServer } from "../support/api-server";
import { DIGEST_OPTIONS, queueEnvelope } from "../support/digest";
import { buildEnvelope, eventItem, newEventId } from "../support/envelopes";
import { DIALECTS, openTestStore, testCtx, type TestStore } from "../support/stores";

const FIRST_SEEN = "sentry.rules.conditions.first_seen_event.FirstSeenEventCondition";
const EVENT_FREQUENCY = "sentry.rules.conditions.event_frequency.EventFrequencyCondition";
const USER_FREQUENCY = "sentry.rules.conditions.event_frequency.EventUniqueUserFrequencyCondition";
const EMAIL = "sentry.mail.actions.NotifyEmailAction";
const TO_OWNERS = { id: EMAIL, targetType: "IssueOwners", fallthroughType: "ActiveMembers" };

/**
 * Issue 14: frequency and unique-user conditions fire once when the issue's count over the
 * interval goes above `value`, then not again within the rule's `frequency`; the tag, age,
 * assignee and latest-release filters hold or not on the event behind the change. Every rule is
 * created through the web API in the shape of Sentry's documentation
 * (https://docs.sentry.io/api/alerts/create-an-issue-alert-rule-for-a-project/). Both databases.
 */
describe.each(DIALECTS)("frequency conditions and filters on %s", (dialect) => {
  let store: TestStore;
  let ctx: Ctx;
  let api: { base: string; close(): Promise<void> };
  let token = "";
  let mel: User;
  let n = 0;

  /** A fresh project (no rules but the default one, switched off here) for each test. */
  async function project(): Promise<{ slug: string; id: number }> {
    const slug = `p${++n}`;
    const { project } = await createProject({ ctx, input: { org: "acme", slug } });
    for (const r of await ctx.alerts.rules(project.id)) await ctx.alerts.deleteRule(project.id, r.id);
    return { slug, id: project.id };
  }

  async function createRule(slug: string, body: Record<string, unknown>): Promise<number> {
    const res = await fetch(`${api.base}/api/0/projects/acme/${slug}/rules/`, {
      method: "POST",
      headers: { authorization: `Bearer ${token}`, "content-type": "application/json" },
      body: JSON.stringify(body),
    });
    const json = (await res.json()) as { id: string };
    expect(res.status, JSON.stringify(json)).toBe(201);
    return Number(json.id);
  }

  /** Queues one error event, as accept would. */
  async function enqueue(projectId: number, message: string, extra: Record<string, unknown>): Promise<void> {
    const id = newEventId();
    await queueEnvelope(store, projectId, buildEnvelope({ event_id: id }, [eventItem(id, message, extra)]));
  }

  /** One error event per entry, each digested on its own (its own batch, as events arriving apart). */
  async function send(projectId: number, message: string, ...extras: Record<string, unknown>[]): Promise<void> {
    for (const extra of extras) {
      await enqueue(projectId, message, extra);
      while ((await digestBatch(ctx, DIGEST_OPTIONS)) > 0);
    }
  }

  /** How many times each rule fired (one notification per recipient; the owner is the one recipient here). */
  async function fired(projectId: number, ruleId: number): Promise<number> {
    return (await ctx.alerts.notifications({ projectId })).filter((x) => x.ruleId === ruleId).length;
  }

  const rewindFires = (ruleId: number, ms: number) =>
    store.db
      .updateTable("alert_rule_fires")
      .set((eb) => ({ fired_at: eb("fired_at", "-", ms) }))
      .where("rule_id", "=", ruleId)
      .execute();

  beforeAll(async () => {
    setLogLevel("error");
    store = await openTestStore(dialect);
    ctx = testCtx(store);
    await createUser({ ctx, input: { email: "olive@example.com", password: "password-123" } });
    mel = await createUser({ ctx, input: { email: "mel@example.com", password: "password-123" } });
    token = (await createToken({ ctx, input: { user: "olive@example.com" } })).token;
    const org = await createOrganization({ ctx, input: { slug: "acme", owner: "olive@example.com" } });
    await ctx.directory.addMember(org.id, mel.id, "member", [], Date.now());
    api = await startApiServer(ctx);
  });
  afterAll(async () => {
    await api?.close();
    await store?.cleanup();
  });

  it("fires 'more than 3 events in an hour' once when the 4th event arrives, and again only after `frequency`", async () => {
    const p = await project();
    const rule = await createRule(p.slug, {
      name: "Busy issue",
      actionMatch: "all",
      filterMatch: "all",
      frequency: 5,
      environment: null,
      owner: null,
      conditions: [{ id: EVENT_FREQUENCY, value: 3, comparisonType: "count", interval: "1h" }],
      filters: [],
      actions: [TO_OWNERS],
    });
    await send(p.id, "checkout timed out", {}, {}, {});
    expect(await fired(p.id, rule)).toBe(0);
    await send(p.id, "checkout timed out", {});
    expect(await fired(p.id, rule)).toBe(1);
    await send(p.id, "checkout timed out", {}, {});
    expect(await fired(p.id, rule)).toBe(1);
    // Five minutes after it fired, the count (still above 3) fires it again with the next event.
    await rewindFires(rule, 5 * 60_000);
    await send(p.id, "checkout timed out", {});
    expect(await fired(p.id, rule)).toBe(2);
    // The digest wrote a `seen` change per batch of this project's issue; the issue page lists none of them.
    const issue = await store.db.selectFrom("issues").select("id").where("project_id", "=", p.id).executeTakeFirstOrThrow();
    const kinds = await store.db.selectFrom("issue_changes").select("kind").where("issue_id", "=", issue.id).orderBy("seq").execute();
    expect(kinds.map((k) => k.kind)).toEqual(["created", ...Array<string>(6).fill("seen")]);
    expect(await store.db.selectFrom("issue_activity").select("type").where("issue_id", "=", issue.id).execute()).toEqual([]);
  });

  it("says a frequency rule fired on a frequency when the events that pass it also create the issue (one batch)", async () => {
    const p = await project();
    const busy = await createRule(p.slug, {
      name: "Busy from the start",
      actionMatch: "all",
      frequency: 5,
      conditions: [{ id: EVENT_FREQUENCY, value: 2, comparisonType: "count", interval: "1h" }],
      actions: [TO_OWNERS],
    });
    const fresh = await createRule(p.slug, {
      name: "New",
      actionMatch: "all",
      frequency: 5,
      conditions: [{ id: FIRST_SEEN }],
      actions: [TO_OWNERS],
    });
    for (let i = 0; i < 3; i++) await enqueue(p.id, "cart is empty", {});
    expect(await digestBatch(ctx, DIGEST_OPTIONS)).toBe(3);
    const kinds = (await ctx.alerts.notifications({ projectId: p.id })).map((x) => [x.ruleId, x.changeKind]);
    expect(kinds.sort()).toEqual(
      [
        [busy, "seen"],
        [fresh, "created"],
      ].sort(),
    );
  });

  it("fires 'more than 2 users in a day' on the third distinct user, not on repeats", async () => {
    const p = await project();
    const rule = await createRule(p.slug, {
      name: "Many users",
      actionMatch: "any",
      frequency: 60,
      conditions: [{ id: USER_FREQUENCY, value: 2, comparisonType: "count", interval: "1d" }],
      actions: [TO_OWNERS],
    });
    const user = (id: string) => ({ user: { id } });
    await send(p.id, "cart is empty", user("u1"), user("u1"), user("u2"), {}, user("u2"));
    expect(await fired(p.id, rule)).toBe(0);
    await send(p.id, "cart is empty", user("u3"));
    expect(await fired(p.id, rule)).toBe(1);
    await send(p.id, "cart is empty", user("u4"), user("u5"));
    expect(await fired(p.id, rule)).toBe(1);
  });

  it("writes no `seen` changes for a project without a frequency rule", async () => {
    const p = await project();
    await createRule(p.slug, { name: "New", conditions: [{ id: FIRST_SEEN }], actions: [TO_OWNERS] });
    await send(p.id, "quiet issue", {}, {}, {});
    const kinds = await store.db.selectFrom("issue_changes").select("kind").where("project_id", "=", p.id).execute();
    expect(kinds.map((k) => k.kind)).toEqual(["created"]);
  });

  it("filters on the triggering event's tags", async () => {
    const p = await project();
    const rule = await createRule(p.slug, {
      name: "Acme's errors",
      conditions: [{ id: FIRST_SEEN }],
      filters: [{ id: "sentry.rules.filters.tagged_event.TaggedEventFilter", key: "customer", match: "eq", value: "ACME" }],
      actions: [TO_OWNERS],
    });
    await send(p.id, "for someone else", { tags: { customer: "globex" } });
    expect(await fired(p.id, rule)).toBe(0);
    await send(p.id, "for acme", { tags: { customer: "acme" } });
    expect(await fired(p.id, rule)).toBe(1);
  });

  it("filters on the issue's age", async () => {
    const p = await project();
    const newer = await createRule(p.slug, {
      name: "Young and busy",
      conditions: [{ id: EVENT_FREQUENCY, value: 0, comparisonType: "count", interval: "1h" }],
      filters: [{ id: "sentry.rules.filters.age_comparison.AgeComparisonFilter", comparison_type: "newer", value: 1, time: "hour" }],
      frequency: 5,
      actions: [TO_OWNERS],
    });
    const older = await createRule(p.slug, {
      name: "Old and busy",
      conditions: [{ id: EVENT_FREQUENCY, value: 0, comparisonType: "count", interval: "1h" }],
      filters: [{ id: "sentry.rules.filters.age_comparison.AgeComparisonFilter", comparison_type: "older", value: 1, time: "day" }],
      frequency: 5,
      actions: [TO_OWNERS],
    });
    await send(p.id, "aging", {});
    expect([await fired(p.id, newer), await fired(p.id, older)]).toEqual([1, 0]);
    // The issue was first seen two days ago.
    await store.db
      .updateTable("issues")
      .set((eb) => ({ first_seen: eb("first_seen", "-", 2 * 86_400_000) }))
      .where("project_id", "=", p.id)
      .execute();
    await rewindFires(newer, 5 * 60_000);
    await send(p.id, "aging", {});
    expect([await fired(p.id, newer), await fired(p.id, older)]).toEqual([1, 1]);
  });

  it("filters on the issue's assignee", async () => {
    const p = await project();
    const unassigned = await createRule(p.slug, {
      name: "Nobody's",
      conditions: [{ id: EVENT_FREQUENCY, value: 0, comparisonType: "count", interval: "5m" }],
      filters: [{ id: "sentry.rules.filters.assigned_to.AssignedToFilter", targetType: "Unassigned" }],
      frequency: 5,
      actions: [TO_OWNERS],
    });
    const mels = await createRule(p.slug, {
      name: "Mel's",
      conditions: [{ id: EVENT_FREQUENCY, value: 0, comparisonType: "count", interval: "5m" }],
      filters: [{ id: "sentry.rules.filters.assigned_to.AssignedToFilter", targetType: "Member", targetIdentifier: String(mel.id) }],
      frequency: 5,
      actions: [TO_OWNERS],
    });
    await send(p.id, "whose is it", {});
    expect([await fired(p.id, unassigned), await fired(p.id, mels)]).toEqual([1, 0]);
    const issue = await store.db.selectFrom("issues").select("id").where("project_id", "=", p.id).executeTakeFirstOrThrow();
    const olive = await store.db.selectFrom("users").selectAll().where("email", "=", "olive@example.com").executeTakeFirstOrThrow();
    await changeIssues({
      ctx,
      input: { projectIds: [p.id], issueIds: [issue.id], user: olive, change: { action: "assign", assigneeId: mel.id } },
    });
    await rewindFires(unassigned, 5 * 60_000);
    await send(p.id, "whose is it", {});
    expect([await fired(p.id, unassigned), await fired(p.id, mels)]).toEqual([1, 1]);
  });

  it("filters on the event being from the project's latest release", async () => {
    const p = await project();
    const rule = await createRule(p.slug, {
      name: "New in the latest release",
      conditions: [{ id: FIRST_SEEN }],
      filters: [{ id: "sentry.rules.filters.latest_release.LatestReleaseFilter" }],
      actions: [TO_OWNERS],
    });
    await send(p.id, "apples are off", { release: "shop@1.0" });
    expect(await fired(p.id, rule)).toBe(1);
    await send(p.id, "pears are off", { release: "shop@2.0" });
    expect(await fired(p.id, rule)).toBe(2);
    // 2.0 is now the latest: a new issue from an old release is filtered out, one without a release too.
    await send(p.id, "plums are off", { release: "shop@1.0" });
    await send(p.id, "figs are off", {});
    expect(await fired(p.id, rule)).toBe(2);
  });
});
