import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createUser } from "../../src/core/accounts/create-user";
import type { Ctx } from "../../src/core/context";
import { digestBatch } from "../../src/core/digest/batch";
import { DEFAULT_ENVELOPE_LIMITS } from "../../src/core/envelope/index";
import { TAG_SUGGESTION_LIMITS, tagKeyValues, topTagValues } from "../../src/core/issues/tag-suggestions";
import { createToken } from "../../src/core/tokens/tokens";
import { setLogLevel } from "../../src/server/log";
import { createOrganization } from "../../src/core/orgs/create-org";
import { createProject } from "../../src/core/projects/create-project";
import { buildEnvelope, newEventId } from "../support/envelopes";
import { startApiServer } from "../support/api-server";
import { DIALECTS, openTestStore, testCtx, type TestStore } from "../support/stores";

describe.each(DIALECTS)("tag value suggestions for the search box on %s", (dialect) => {
  let store: TestStore;
  let ctx: Ctx;
  let web = 0;
  let api = 0;
  let apiServer: { base: string; close(): Promise<void> } | undefined;
  let apiUrl = "";
  let token = "";

  async function send(projectId: number, type: string, environment: string) {
    const id = newEventId();
    const payload = {
      event_id: id,
      platform: "python",
      timestamp: Date.now() / 1000,
      environment,
      exception: { values: [{ type, value: "boom" }] },
    };
    const body = buildEnvelope({ event_id: id }, [{ type: "event", payload: JSON.stringify(payload) }]);
    await store.queue
      .insertInto("ingest_queue")
      .values({ project_id: projectId, key_id: 0, endpoint: "envelope", received_at: Date.now(), body })
      .execute();
  }

  beforeAll(async () => {
    store = await openTestStore(dialect);
    ctx = testCtx(store);
    await createUser({ ctx, input: { email: "dev@example.com", password: "password-123" } });
    await createOrganization({ ctx, input: { slug: "t", owner: "dev@example.com" } });
    web = (await createProject({ ctx, input: { org: "t", slug: "web" } })).project.id;
    api = (await createProject({ ctx, input: { org: "t", slug: "api" } })).project.id;
    // staging is seen in two issues (3 events), production in one (2 events): staging first.
    await send(web, "A", "production");
    await send(web, "A", "production");
    await send(web, "A", "staging");
    await send(web, "B", "staging");
    await send(web, "B", "staging");
    await send(api, "C", "api-only");
    await digestBatch(ctx, { batchSize: 50, limits: DEFAULT_ENVELOPE_LIMITS });
    setLogLevel("warn");
    ({ token } = await createToken({ ctx, input: { user: "dev@example.com" } }));
    apiServer = await startApiServer(ctx);
    apiUrl = apiServer.base;
  });
  afterAll(async () => {
    await apiServer?.close();
    await store.cleanup();
  });

  it("lists each key's values, most seen first, summed over issues", async () => {
    const tags = await topTagValues(ctx, [web]);
    expect(tags.environment).toEqual(["staging", "production"]);
  });

  it("only looks at the projects asked for", async () => {
    expect((await topTagValues(ctx, [web])).environment).not.toContain("api-only");
    expect((await topTagValues(ctx, [web, api])).environment).toContain("api-only");
    expect(await topTagValues(ctx, [])).toEqual({});
  });

  it("counts only the most recently seen issues", async () => {
    const a = await store.db
      .selectFrom("issue_tags")
      .select("issue_id")
      .where("key", "=", "environment")
      .where("value", "=", "production")
      .executeTakeFirstOrThrow();
    // Issue B (staging only) becomes the most recently seen of the project's two.
    await store.db
      .updateTable("issues")
      .set({ last_seen: Date.now() + 86_400_000 })
      .where("project_id", "=", web)
      .where("id", "<>", a.issue_id)
      .execute();
    expect((await topTagValues(ctx, [web], { ...TAG_SUGGESTION_LIMITS, issues: 1 })).environment).toEqual(["staging"]);
    expect((await topTagValues(ctx, [web], { ...TAG_SUGGESTION_LIMITS, issues: 2 })).environment).toEqual(["staging", "production"]);
  });

  it("counts one key's values over issues and filters them by prefix", async () => {
    const values = await tagKeyValues(ctx, [web, api], "environment", { limit: 10 });
    expect(values.map((v) => [v.value, v.count])).toEqual([
      ["staging", 3],
      ["production", 2],
      ["api-only", 1],
    ]);
    expect((await tagKeyValues(ctx, [web, api], "environment", { prefix: "st", limit: 10 })).map((v) => v.value)).toEqual(["staging"]);
  });

  it("serves the values in Sentry's shape at /api/0/organizations/{org}/tags/{key}/values/", async () => {
    const res = await fetch(`${apiUrl}/api/0/organizations/t/tags/environment/values/?query=pro`, {
      headers: { authorization: `Bearer ${token}` },
    });
    expect(res.status).toBe(200);
    const body = (await res.json()) as Array<Record<string, unknown>>;
    expect(body).toHaveLength(1);
    expect(body[0]).toMatchObject({ key: "environment", name: "production", value: "production", count: 2 });
    expect(typeof body[0]?.lastSeen).toBe("string");
    expect((await fetch(`${apiUrl}/api/0/organizations/t/tags/environment/values/`)).status).toBe(401);
  });

  const get = (path: string) => fetch(`${apiUrl}/api/0${path}`, { headers: { authorization: `Bearer ${token}` } });
  const json = async (path: string) => {
    const res = await get(path);
    expect(res.status, path).toBe(200);
    return (await res.json()) as unknown;
  };
  /** Issue A: production twice, staging once. */
  const issueA = async () =>
    (
      await store.db
        .selectFrom("issue_tags")
        .select("issue_id")
        .where("key", "=", "environment")
        .where("value", "=", "production")
        .executeTakeFirstOrThrow()
    ).issue_id;

  it("lists an issue's tags with their top values, and one key's details, in Sentry's shape", async () => {
    const id = await issueA();
    const environment = {
      key: "environment",
      name: "Environment",
      uniqueValues: 2,
      totalValues: 3,
      topValues: [
        expect.objectContaining({ key: "environment", name: "production", value: "production", count: 2 }),
        expect.objectContaining({ key: "environment", value: "staging", count: 1 }),
      ],
    };
    const tags = (await json(`/organizations/t/issues/${id}/tags/`)) as Array<{ key: string; topValues: Array<{ lastSeen: string }> }>;
    expect(tags).toContainEqual(environment);
    expect(tags.map((t) => t.key)).toContain("level");
    expect(tags[0]?.topValues[0]?.lastSeen).toMatch(/^\d{4}-\d\d-\d\dT/);
    expect(await json(`/organizations/t/issues/${id}/tags/?key=environment&limit=1`)).toEqual([
      { ...environment, topValues: [environment.topValues[0]] },
    ]);
    expect(await json(`/organizations/t/issues/${id}/tags/environment/`)).toEqual(environment);
    expect((await get(`/organizations/t/issues/${id}/tags/nope/`)).status).toBe(404);
    expect((await get(`/organizations/t/issues/%00/tags/`)).status).toBe(404);
    expect((await get(`/organizations/t/issues/99999999999/tags/environment/values/`)).status).toBe(404);
  });

  it("pages an issue key's values in Sentry's sort by the Link header's cursors", async () => {
    const id = await issueA();
    const first = await get(`/organizations/t/issues/${id}/tags/environment/values/?sort=-count&limit=1`);
    expect(((await first.json()) as Array<{ value: string }>).map((v) => v.value)).toEqual(["production"]);
    const next = /<([^>]+)>; rel="next"; results="true"/.exec(first.headers.get("link") ?? "")?.[1];
    expect(next).toContain("sort=-count");
    // The link is on the public URL; the same path and query on the test server.
    const second = await get(new URL(next ?? "/").pathname.slice("/api/0".length) + new URL(next ?? "/").search);
    expect(((await second.json()) as Array<{ value: string }>).map((v) => v.value)).toEqual(["staging"]);
    expect(second.headers.get("link")).toMatch(/rel="previous"; results="true".*rel="next"; results="false"/);
    const byAge = (await json(`/organizations/t/issues/${id}/tags/environment/values/?sort=age`)) as Array<{ value: string }>;
    expect(byAge.map((v) => v.value)).toEqual(["production", "staging"]);
    expect((await get(`/organizations/t/issues/${id}/tags/environment/values/?sort=size`)).status).toBe(400);
    expect((await get(`/organizations/t/issues/${id}/tags/environment/values/?cursor=nope`)).status).toBe(400);
    expect((await get(`/organizations/t/issues/${id}/tags/nope/values/`)).status).toBe(404);
  });

  it("lists a project's and the organization's tag keys, narrowed by project and period", async () => {
    expect(await json("/projects/t/web/tags/")).toContainEqual({ key: "environment", name: "Environment", totalValues: 5 });
    expect(await json("/organizations/t/tags/")).toContainEqual({ key: "environment", name: "Environment", totalValues: 6 });
    expect(await json(`/organizations/t/tags/?project=${api}&statsPeriod=14d`)).toContainEqual({
      key: "environment",
      name: "Environment",
      totalValues: 1,
    });
    expect((await get("/organizations/t/tags/?statsPeriod=soon")).status).toBe(400);
    expect((await get("/organizations/t/tags/?project=424242")).status).toBe(404);
  });
});
