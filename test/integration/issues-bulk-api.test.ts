import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createUser } from "../../src/core/accounts/create-user";
import type { Ctx } from "../../src/core/context";
import { digestBatch } from "../../src/core/digest/batch";
import { DEFAULT_ENVELOPE_LIMITS } from "../../src/core/envelope/index";
import { createOrganization } from "../../src/core/orgs/create-org";
import { createProject } from "../../src/core/projects/create-project";
import { createToken } from "../../src/core/tokens/tokens";
import { setLogLevel } from "../../src/server/log";
import { startApiServer } from "../support/api-server";
import { sentryCli } from "../support/clients";
import { buildEnvelope, newEventId } from "../support/envelopes";
import { DIALECTS, openTestStore, testCtx, type TestStore } from "../support/stores";

/**
 * Bulk mutate and delete of issues (Sentry's `PUT`/`DELETE …/issues/`, per project and per
 * organization, and one issue's `DELETE`), as the real sentry-cli's `issues resolve | mute |
 * unresolve` sends them (`-i`, `-s`, `-a`) and as scripts call them. Both databases.
 */
describe.each(DIALECTS)("bulk issue changes and deletes on %s", (dialect) => {
  let store: TestStore;
  let ctx: Ctx;
  let api: { base: string; close(): Promise<void> };
  let token = "";
  const projects = { web: 0, api: 0 };
  /** Issue ids by the error type of their one event, and that event's id. */
  const issues = new Map<string, { id: string; eventId: string }>();

  async function ingest(project: keyof typeof projects, type: string): Promise<{ id: string; eventId: string }> {
    const eventId = newEventId();
    const payload = {
      event_id: eventId,
      platform: "node",
      level: "error",
      timestamp: Date.now() / 1000,
      exception: { values: [{ type, value: "x" }] },
    };
    const body = buildEnvelope({ event_id: eventId }, [{ type: "event", payload: JSON.stringify(payload) }]);
    await store.queue
      .insertInto("ingest_queue")
      .values({ project_id: projects[project], key_id: 0, endpoint: "envelope", received_at: Date.now(), body })
      .execute();
    await digestBatch(ctx, { batchSize: 50, limits: DEFAULT_ENVELOPE_LIMITS });
    const row = await store.db.selectFrom("events").select("issue_id").where("event_id", "=", eventId).executeTakeFirstOrThrow();
    const issue = { id: String(row.issue_id), eventId };
    issues.set(type, issue);
    return issue;
  }

  beforeAll(async () => {
    setLogLevel("warn");
    store = await openTestStore(dialect);
    ctx = testCtx(store);
    await createUser({ ctx, input: { email: "owner@example.com", password: "password-123" } });
    await createOrganization({ ctx, input: { slug: "acme", owner: "owner@example.com" } });
    projects.web = (await createProject({ ctx, input: { org: "acme", slug: "web", platform: "node" } })).project.id;
    projects.api = (await createProject({ ctx, input: { org: "acme", slug: "api", platform: "node" } })).project.id;
    for (const type of ["AError", "BError", "CError", "DError"]) await ingest("web", type);
    await ingest("api", "ApiError");
    api = await startApiServer(ctx);
    ctx.publicUrl = api.base;
    token = (await createToken({ ctx, input: { user: "owner@example.com", name: "ci" } })).token;
  });

  afterAll(async () => {
    await api?.close();
    await store?.cleanup();
  });

  const id = (type: string) => issues.get(type)?.id ?? "missing";
  const call = async (path: string, init: { method?: string; body?: unknown; token?: string } = {}) => {
    const res = await fetch(`${api.base}/api/0/${path}`, {
      method: init.method ?? "GET",
      headers: { authorization: `Bearer ${init.token ?? token}`, "content-type": "application/json" },
      ...(init.body !== undefined ? { body: JSON.stringify(init.body) } : {}),
    });
    const text = await res.text();
    return { status: res.status, body: (text ? JSON.parse(text) : null) as Record<string, unknown> | null };
  };
  const statusOf = async (type: string) => (await call(`organizations/acme/issues/${id(type)}/`)).body?.status;
  const cli = async (...args: string[]) => {
    const r = await sentryCli(api.base, token, ["issues", ...args, "--org", "acme", "--project", "web"]);
    expect(r.code, `${args.join(" ")}\n${r.out}`).toBe(0);
    return r.out;
  };

  it("resolves, mutes and unresolves by id with sentry-cli, through triage: the outbox and the activity see who did it", async () => {
    expect(await cli("resolve", "-i", id("AError"), "-i", id("BError"))).toContain("Updated matching issues");
    expect([await statusOf("AError"), await statusOf("BError"), await statusOf("CError")]).toEqual(["resolved", "resolved", "unresolved"]);
    await cli("mute", "-i", id("CError"));
    expect(await call(`organizations/acme/issues/${id("CError")}/`)).toMatchObject({
      body: { status: "ignored", substatus: "archived_forever" },
    });
    await cli("unresolve", "-i", id("AError"));
    expect(await statusOf("AError")).toBe("unresolved");
    const changes = await store.db
      .selectFrom("issue_changes")
      .select(["kind", "user_id"])
      .where("issue_id", "=", Number(id("AError")))
      .orderBy("seq")
      .execute();
    expect(changes.filter((c) => c.user_id !== null).map((c) => c.kind)).toEqual(["resolved", "unresolved"]);
    const activity = await store.db
      .selectFrom("issue_activity")
      .select("type")
      .where("issue_id", "=", Number(id("AError")))
      .execute();
    expect(activity.map((a) => a.type)).toEqual(expect.arrayContaining(["set_resolved", "set_unresolved"]));
  });

  it("changes every unresolved issue of the project with -a, and the issues of one status with -s", async () => {
    await cli("resolve", "-a");
    for (const type of ["AError", "BError", "DError"]) expect(await statusOf(type)).toBe("resolved");
    // Another project's issue and an ignored one are not the project's unresolved issues.
    expect([await statusOf("ApiError"), await statusOf("CError")]).toEqual(["unresolved", "ignored"]);
    await cli("unresolve", "-s", "resolved");
    for (const type of ["AError", "BError", "DError"]) expect(await statusOf(type)).toBe("unresolved");
    expect(await statusOf("CError")).toBe("ignored");
    await cli("unresolve", "-s", "muted");
    expect(await statusOf("CError")).toBe("unresolved");
  });

  it("answers with what changed, per project and per organization; 204 when nothing matched; ids are required but for status", async () => {
    const both = `id=${id("AError")}&id=${id("BError")}`;
    const bookmark = await call(`projects/acme/web/issues/?${both}`, {
      method: "PUT",
      body: { isBookmarked: true, assignedTo: "", hasSeen: true },
    });
    expect(bookmark).toEqual({ status: 200, body: { isBookmarked: true, assignedTo: null, hasSeen: true } });
    const ignored = await call(`organizations/acme/issues/?query=DError&project=${projects.web}`, {
      method: "PUT",
      body: { status: "ignored", statusDetails: { ignoreCount: 10 } },
    });
    expect(ignored).toMatchObject({ status: 200, body: { status: "ignored", statusDetails: { ignoreCount: 10 } } });
    expect(await statusOf("DError")).toBe("ignored");
    // The api project's issue named through the web project is out of scope: nothing changes.
    expect(await call(`projects/acme/web/issues/?id=${id("ApiError")}`, { method: "PUT", body: { status: "resolved" } })).toEqual({
      status: 204,
      body: null,
    });
    expect(await statusOf("ApiError")).toBe("unresolved");
    // `status` narrows named ids too: DError is ignored, not unresolved.
    const narrowed = await call(`projects/acme/web/issues/?id=${id("DError")}&status=unresolved`, {
      method: "PUT",
      body: { status: "resolved" },
    });
    expect([narrowed.status, await statusOf("DError")]).toEqual([204, "ignored"]);
    expect(await call("projects/acme/web/issues/", { method: "PUT", body: { isBookmarked: true } })).toMatchObject({ status: 400 });
    expect(await call("projects/acme/web/issues/?id=1", { method: "PUT", body: { status: "solved" } })).toMatchObject({ status: 400 });
    expect(await call("projects/acme/web/issues/?id=abc", { method: "PUT", body: { status: "resolved" } })).toMatchObject({ status: 404 });
    expect(await call("projects/acme/web/issues/?query=is%3A", { method: "PUT", body: { status: "resolved" } })).toMatchObject({
      status: 400,
    });
  });

  it("merges the issues it names into the one seen first", async () => {
    const merged = await call(`organizations/acme/issues/?id=${id("BError")}&id=${id("AError")}`, { method: "PUT", body: { merge: true } });
    expect(merged).toEqual({ status: 200, body: { merge: { parent: id("AError"), children: [id("BError")] } } });
    expect((await call(`organizations/acme/issues/${id("AError")}/`)).body?.count).toBe("2");
  });

  it("deletes issues with their events, one by one and in bulk; a new event of a deleted issue opens a new one", async () => {
    // Deleting takes Sentry's event:admin scope; event:write triages only.
    const triager = (await createToken({ ctx, input: { user: "owner@example.com", name: "triage", scopes: ["event:write"] } })).token;
    expect(await call(`organizations/acme/issues/${id("AError")}/`, { method: "DELETE", token: triager })).toMatchObject({ status: 403 });
    const single = await call(`organizations/acme/issues/${id("AError")}/`, { method: "DELETE" });
    expect(single).toEqual({ status: 202, body: null });
    // AError's events, BError's (merged into it) too, and the merged issue itself.
    for (const type of ["AError", "BError"]) {
      expect((await call(`projects/acme/web/events/${issues.get(type)?.eventId ?? ""}/`)).status).toBe(404);
      expect((await call(`organizations/acme/issues/${id(type)}/`)).status).toBe(404);
    }
    expect(await call(`projects/acme/web/issues/?id=${id("CError")}&id=999999`, { method: "DELETE" })).toEqual({ status: 204, body: null });
    expect(await call(`organizations/acme/issues/?id=${id("DError")}&id=${id("ApiError")}`, { method: "DELETE" })).toEqual({
      status: 204,
      body: null,
    });
    for (const type of ["CError", "DError", "ApiError"]) expect((await call(`organizations/acme/issues/${id(type)}/`)).status).toBe(404);
    expect(await store.db.selectFrom("events").select("id").where("project_id", "=", projects.web).execute()).toEqual([]);
    const audit = await store.db.selectFrom("audit_log").select(["event", "target_label"]).where("event", "=", "issue.delete").execute();
    expect(audit.map((a) => a.target_label).sort()).toEqual(["API-1", "WEB-1", "WEB-2", "WEB-3", "WEB-4"]);
    const before = id("CError");
    await ingest("web", "CError");
    expect(id("CError")).not.toBe(before);
    expect(await statusOf("CError")).toBe("unresolved");
    expect((await call(`organizations/acme/issues/${before}/`, { method: "DELETE" })).status).toBe(404);
  });
});
