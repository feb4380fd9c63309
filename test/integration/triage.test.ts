import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createUser } from "../../src/core/accounts/create-user";
import type { Ctx } from "../../src/core/context";
import { digestBatch } from "../../src/core/digest/batch";
import { DEFAULT_ENVELOPE_LIMITS } from "../../src/core/envelope/index";
import { issueActivity } from "../../src/core/issues/queries";
import { changeIssues, mergeIssues, unmergeIssue, type IssueChange } from "../../src/core/issues/triage";
import { createOrganization } from "../../src/core/orgs/create-org";
import { createProject } from "../../src/core/projects/create-project";
import type { User } from "../../src/db/schema";
import { buildEnvelope, newEventId } from "../support/envelopes";
import { DIALECTS, openTestStore, testCtx, type TestStore } from "../support/stores";

describe.each(DIALECTS)("triage and state changes from new events on %s", (dialect) => {
  let store: TestStore;
  let ctx: Ctx;
  let user: User;
  let projectId = 0;

  async function send(type: string, release: string, userEmail = "a@example.com") {
    const id = newEventId();
    const payload = {
      event_id: id,
      platform: "python",
      timestamp: Date.now() / 1000,
      release,
      user: { email: userEmail },
      exception: { values: [{ type, value: "boom" }] },
    };
    const body = buildEnvelope({ event_id: id }, [{ type: "event", payload: JSON.stringify(payload) }]);
    await store.queue
      .insertInto("ingest_queue")
      .values({ project_id: projectId, key_id: 0, endpoint: "envelope", received_at: Date.now(), body })
      .execute();
    await digestBatch(ctx, { batchSize: 50, limits: DEFAULT_ENVELOPE_LIMITS });
    const event = await store.db.selectFrom("events").select("issue_id").where("event_id", "=", id).executeTakeFirstOrThrow();
    return event.issue_id!;
  }
  const issue = (id: number) => store.db.selectFrom("issues").selectAll().where("id", "=", id).executeTakeFirstOrThrow();
  const change = (id: number, c: IssueChange) => changeIssues({ ctx, input: { projectIds: [projectId], issueIds: [id], user, change: c } });
  const activity = async (id: number) =>
    (await store.db.selectFrom("issue_activity").select("type").where("issue_id", "=", id).orderBy("id").execute()).map((a) => a.type);

  beforeAll(async () => {
    store = await openTestStore(dialect);
    ctx = testCtx(store);
    user = await createUser({ ctx, input: { email: "dev@example.com", password: "password-123" } });
    await createOrganization({ ctx, input: { slug: "t", owner: "dev@example.com" } });
    projectId = (await createProject({ ctx, input: { org: "t", slug: "p" } })).project.id;
  });
  afterAll(async () => {
    await store.cleanup();
  });

  it("holds a 'resolved in next release' issue for its release and regresses on a newer one", async () => {
    const id = await send("NextReleaseError", "app@1.0.0");
    await change(id, { action: "resolveInNextRelease" });
    await send("NextReleaseError", "app@1.0.0");
    expect((await issue(id)).status).toBe("resolved");
    await send("NextReleaseError", "app@1.1.0");
    expect(await issue(id)).toMatchObject({ status: "unresolved", substatus: "regressed", times_seen: 3 });
    expect(await activity(id)).toEqual(["set_resolved_in_next_release", "set_regression"]);
  });

  it("ignores an older release's events after 'resolved in release', but not newer ones", async () => {
    const id = await send("InReleaseError", "app@2.0.0");
    await change(id, { action: "resolveInRelease", release: "app@2.1.0" });
    await send("InReleaseError", "app@2.0.5");
    expect((await issue(id)).status).toBe("resolved");
    await send("InReleaseError", "app@2.1.0");
    expect((await issue(id)).substatus).toBe("regressed");
  });

  it("unignores after N more events, and after N more users", async () => {
    const a = await send("CountError", "app@1");
    await change(a, { action: "ignore", count: 2 });
    await send("CountError", "app@1");
    expect((await issue(a)).status).toBe("ignored");
    await send("CountError", "app@1");
    expect(await issue(a)).toMatchObject({ status: "unresolved", substatus: "escalating", ignore_count: null });

    const b = await send("UsersError", "app@1", "u1@example.com");
    await change(b, { action: "ignore", users: 2 });
    await send("UsersError", "app@1", "u1@example.com");
    await send("UsersError", "app@1", "u2@example.com");
    expect((await issue(b)).status).toBe("ignored");
    await send("UsersError", "app@1", "u3@example.com");
    expect((await issue(b)).status).toBe("unresolved");
  });

  it("stays ignored forever, whatever arrives", async () => {
    const id = await send("ForeverError", "app@1");
    await change(id, { action: "ignore", forever: true });
    for (let i = 0; i < 3; i++) await send("ForeverError", "app@9");
    expect((await issue(id)).status).toBe("ignored");
  });

  it("merges issues into the oldest, moving events, counts and hashes, so new events land there", async () => {
    const first = await send("MergeA", "app@1");
    const second = await send("MergeB", "app@1", "b@example.com");
    const merged = await mergeIssues({ ctx, input: { projectIds: [projectId], issueIds: [second, first], user } });
    expect(merged.id).toBe(first);
    expect(await issue(first)).toMatchObject({ times_seen: 2, user_count: 2 });
    expect((await issue(second)).merged_into_id).toBe(first);
    expect(await send("MergeB", "app@1")).toBe(first);
    // The merged issue's activity names its new home by short id, as the pages do.
    const [entry] = await issueActivity(ctx, second);
    expect(entry).toMatchObject({
      type: "merge",
      data: { into: first, intoShortId: `P-${(await issue(first)).short_number.toString(36).toUpperCase()}` },
    });
  });

  it("unmerges: the merged issue gets its events, hashes and counts back, and new events land there again", async () => {
    const first = await send("UnmergeA", "app@1");
    const second = await send("UnmergeB", "app@1", "b2@example.com");
    await send("UnmergeB", "app@1", "b2@example.com");
    const tagTotal = async (id: number) =>
      (
        await store.db.selectFrom("issue_tags").select("times_seen").where("issue_id", "=", id).where("key", "=", "release").execute()
      ).reduce((s, t) => s + t.times_seen, 0);
    const before = { first: await issue(first), second: await issue(second), firstTags: await tagTotal(first) };
    await mergeIssues({ ctx, input: { projectIds: [projectId], issueIds: [first, second], user } });
    // One more event of the merged fingerprint after the merge: it lands on the target, and goes back with the rest.
    expect(await send("UnmergeB", "app@1", "b2@example.com")).toBe(first);
    const [mergeEntry] = (await issueActivity(ctx, first)).filter((a) => a.type === "merge");
    expect(mergeEntry?.data).toMatchObject({
      merged: [second],
      mergedShortIds: [`P-${before.second.short_number.toString(36).toUpperCase()}`],
    });

    const result = await unmergeIssue({ ctx, input: { projectIds: [projectId], issueId: second, user } });
    expect(result.events).toBe(3);
    expect(await issue(second)).toMatchObject({ merged_into_id: null, status: "unresolved", times_seen: 3, user_count: 1 });
    expect(await issue(first)).toMatchObject({
      merged_into_id: null,
      times_seen: before.first.times_seen,
      user_count: before.first.user_count,
    });
    const events = await store.db.selectFrom("events").select("issue_id").where("issue_id", "in", [first, second]).execute();
    expect(events.filter((e) => e.issue_id === second)).toHaveLength(3);
    expect(events.filter((e) => e.issue_id === first)).toHaveLength(1);
    // The merge's copy of the merged issue's tags is taken off; the event that arrived after the
    // merge stays counted in the target's tags (src/db/issue-unmerge.ts says why).
    expect(await tagTotal(first)).toBe(before.firstTags + 1);
    expect(await send("UnmergeB", "app@1")).toBe(second);
    expect((await issueActivity(ctx, second)).map((a) => a.type)).toContain("unmerge");
    expect((await issueActivity(ctx, first)).map((a) => a.type)).toContain("unmerge");
    // Once is enough: the issue is on its own again.
    await expect(unmergeIssue({ ctx, input: { projectIds: [projectId], issueId: second, user } })).rejects.toThrow(/not merged/);
  });

  it("refuses to assign an issue to someone outside its organization", async () => {
    const outsider = await createUser({ ctx, input: { email: "out@example.com", password: "password-123" } });
    const id = await send("AssignError", "app@1");
    await expect(change(id, { action: "assign", assigneeId: outsider.id })).rejects.toThrow(/member of its organization/);
    await change(id, { action: "assign", assigneeId: user.id });
    expect((await issue(id)).assignee_id).toBe(user.id);
  });
});
