import { sql } from "kysely";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { planStatements } from "../support/query-plans";
import { createUser } from "../../src/core/accounts/create-user";
import type { Ctx } from "../../src/core/context";
import { digestBatch } from "../../src/core/digest/batch";
import { DEFAULT_ENVELOPE_LIMITS } from "../../src/core/envelope/index";
import { createOrganization } from "../../src/core/orgs/create-org";
import { createProject } from "../../src/core/projects/create-project";
import { lookup, LOOKUP_LIMIT } from "../../src/core/search/lookup";
import { KyselyPaletteLookup } from "../../src/db/palette-lookup";
import type { Organization, User } from "../../src/db/schema";
import { LOOKUP_ROUTES } from "../../src/server/api/lookup-routes";
import { buildEnvelope, newEventId } from "../support/envelopes";
import { DIALECTS, openTestStore, testCtx, type TestStore } from "../support/stores";

describe.each(DIALECTS)("the command palette's lookup on %s", (dialect) => {
  let store: TestStore;
  let ctx: Ctx;
  let mine: Organization;
  const traceId = "0123456789abcdef0123456789abcdef";
  const otherTraceId = "fedcba9876543210fedcba9876543210";
  let checkoutEvent = "";
  let otherEvent = "";
  let user: User;

  async function send(projectId: number, type: string, trace: string) {
    const id = newEventId();
    const payload = {
      event_id: id,
      platform: "node",
      timestamp: Date.now() / 1000,
      contexts: { trace: { trace_id: trace, span_id: "0123456789abcdef" } },
      exception: { values: [{ type, value: "boom" }] },
    };
    const body = buildEnvelope({ event_id: id }, [{ type: "event", payload: JSON.stringify(payload) }]);
    await store.queue
      .insertInto("ingest_queue")
      .values({ project_id: projectId, key_id: 0, endpoint: "envelope", received_at: Date.now(), body })
      .execute();
    await digestBatch(ctx, { batchSize: 50, limits: DEFAULT_ENVELOPE_LIMITS });
    return id;
  }
  const find = (query: string, org = mine) => lookup({ ctx, input: { org, projectIds: null, query } });

  beforeAll(async () => {
    store = await openTestStore(dialect);
    ctx = testCtx(store);
    user = await createUser({ ctx, input: { email: "dev@example.com", password: "password-123" } });
    await createOrganization({ ctx, input: { slug: "mine", owner: "dev@example.com" } });
    await createOrganization({ ctx, input: { slug: "other", owner: "dev@example.com" } });
    mine = await store.db.selectFrom("organizations").selectAll().where("slug", "=", "mine").executeTakeFirstOrThrow();
    const shop = (await createProject({ ctx, input: { org: "mine", slug: "shop", name: "Web Shop" } })).project.id;
    const secret = (await createProject({ ctx, input: { org: "other", slug: "secret" } })).project.id;
    checkoutEvent = await send(shop, "CheckoutError", traceId);
    await send(shop, "CartError", traceId);
    otherEvent = await send(secret, "CheckoutSecretError", otherTraceId);
  });
  afterAll(async () => {
    await store.cleanup();
  });

  it("finds an issue by its short id, in any letter case", async () => {
    expect(await find("SHOP-1")).toEqual([expect.objectContaining({ kind: "issue", shortId: "SHOP-1", project: "shop" })]);
    expect((await find("shop-2"))[0]).toMatchObject({ kind: "issue", shortId: "SHOP-2" });
  });

  it("does not find another organization's issue by short id, title, event id or trace id", async () => {
    expect(await find("SECRET-1")).toEqual([]);
    expect((await find("CheckoutSecret")).filter((r) => r.kind === "issue")).toEqual([]);
    expect(await find(otherEvent)).toEqual([]);
    expect(await find(otherTraceId)).toEqual([]);
  });

  it("resolves a 32-hex id to the event with that id and to the trace with that id", async () => {
    expect(await find(checkoutEvent.toUpperCase())).toEqual([
      expect.objectContaining({ kind: "event", eventId: checkoutEvent, project: "shop" }),
    ]);
    expect(await find(traceId)).toEqual([{ kind: "trace", traceId }]);
  });

  it("matches projects by slug or name and issues by title words, case-insensitively", async () => {
    expect(await find("web")).toEqual([{ kind: "project", slug: "shop", name: "Web Shop" }]);
    const titles = (await find("checkout")).map((r) => (r.kind === "issue" ? r.title : r.kind));
    expect(titles).toEqual([expect.stringMatching(/^CheckoutError/)]);
  });

  it("finds issues by words anywhere in the title, each typed word starting one, through the word index", async () => {
    const titles = async (query: string) => (await find(query)).flatMap((r) => (r.kind === "issue" ? [r.title] : [])).sort();
    expect(await titles("boom")).toEqual(["CartError: boom", "CheckoutError: boom"]);
    expect(await titles("BO cart")).toEqual(["CartError: boom"]);
    expect(await titles("oom")).toEqual([]);
    if (dialect === "sqlite") {
      const plans = await planStatements(store, (db) =>
        new KyselyPaletteLookup(db, dialect).issuesByTitleWords(mine.id, ["boom"], LOOKUP_LIMIT).then(() => {}),
      );
      const issues = plans.find((p) => p.sql.includes("issue_title_words"));
      expect(issues?.steps).toContainEqual(expect.stringMatching(/VIRTUAL TABLE INDEX/));
    } else {
      // One connection, so that the setting holds for the EXPLAIN; a few rows would rather be read whole.
      const plan = await store.db.connection().execute(async (db) => {
        await sql`set enable_seqscan = off`.execute(db);
        try {
          const rows = await sql<{
            "QUERY PLAN": string;
          }>`explain select id from issues where to_tsvector('simple', title) @@ to_tsquery('simple', 'boom:*')`.execute(db);
          return rows.rows.map((r) => r["QUERY PLAN"]).join("\n");
        } finally {
          await sql`set enable_seqscan = on`.execute(db);
        }
      });
      expect(plan).toContain("issues_title_words");
    }
  });

  it("answers the web API with the UI page each result opens", async () => {
    const [lookupRoute] = LOOKUP_ROUTES;
    const answer = (query: string) =>
      lookupRoute!.handler({
        ctx,
        user,
        access: { org: mine, role: "owner", projectIds: null },
        params: ["mine"],
        query: new URLSearchParams({ query }),
        body: undefined,
        audit: () => Promise.reject(new Error("a read records nothing")),
      });
    expect(lookupRoute).toMatchObject({ method: "GET", permission: "issue:read" });
    expect(await answer("SHOP-1")).toEqual({
      results: [expect.objectContaining({ href: expect.stringMatching(/^\/orgs\/mine\/issues\/\d+$/) })],
    });
    expect(await answer(traceId)).toEqual({ results: [{ kind: "trace", traceId, href: `/orgs/mine/traces/${traceId}` }] });
    expect(await answer(checkoutEvent)).toEqual({
      results: [expect.objectContaining({ href: expect.stringMatching(new RegExp(`^/orgs/mine/issues/\\d+/events/${checkoutEvent}$`)) })],
    });
    expect(await answer("web")).toEqual({ results: [expect.objectContaining({ href: "/orgs/mine/issues?project=shop" })] });
  });

  it("treats LIKE wildcards as text and returns nothing for an empty query", async () => {
    expect(await find("%")).toEqual([]);
    expect(await find("_art")).toEqual([]);
    expect(await find("  ")).toEqual([]);
  });
});
