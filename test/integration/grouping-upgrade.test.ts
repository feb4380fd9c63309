import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createUser } from "../../src/core/accounts/create-user";
import { createOrganization } from "../../src/core/orgs/create-org";
import { createProject } from "../../src/core/projects/create-project";
import { createToken } from "../../src/core/tokens/tokens";
import { handleApi } from "../../src/server/api/router";
import { setLogLevel } from "../../src/server/log";
import { GROUPING_CONFIG, hashValues, registerGroupingStrategy, type GroupingStrategy } from "../../src/core/grouping/index";
import { groupingState, upgradeGrouping } from "../../src/core/projects/grouping-config";
import { buildEnvelope, newEventId } from "../support/envelopes";
import { openDigestBench, type DigestBench } from "../support/digest";
import { DIALECTS, openTestStore, testCtx, type TestStore } from "../support/stores";

/**
 * Issue 11, item 4: a project keeps the grouping version it was made with; an upgrade computes
 * both versions during its transition, so issues made before it keep receiving their events.
 * The second version is test-only: it groups by the exception's value alone.
 */
const BY_VALUE: GroupingStrategy = {
  id: "test:by-value",
  released: "2099-01-01",
  description: "Test only: the first exception's value, nothing else.",
  defaultVariants: (event) => [
    {
      id: "default",
      description: "exception value",
      contributes: true,
      hint: null,
      hash: hashValues([event.exception?.values?.[0]?.value ?? ""]),
    },
  ],
};

/** An error with an in-app stack: the current version groups it by type and frames, not by its value. */
function paymentError(value: string, type = "PaymentError", fn = "charge"): { id: string; body: Buffer } {
  const id = newEventId();
  const event = {
    event_id: id,
    platform: "node",
    level: "error",
    timestamp: Date.now() / 1000,
    exception: {
      values: [
        {
          type,
          value,
          stacktrace: {
            frames: [
              { filename: "/app/server.js", function: "handle", lineno: 10, in_app: true },
              { filename: "/app/payments.js", function: fn, lineno: 42, in_app: true },
            ],
          },
        },
      ],
    },
  };
  return { id, body: buildEnvelope({ event_id: id }, [{ type: "event", payload: JSON.stringify(event) }]) };
}

describe.each(DIALECTS)("a project's grouping upgrade on %s", (dialect) => {
  let bench: DigestBench;
  beforeAll(async () => {
    registerGroupingStrategy(BY_VALUE);
    bench = await openDigestBench(dialect);
  });
  afterAll(() => bench.store.cleanup());

  async function digest(value: string, type?: string, fn?: string): Promise<number> {
    const { id, body } = paymentError(value, type, fn);
    await bench.enqueue(body);
    await bench.drain();
    const row = await bench.store.db.selectFrom("events").select("issue_id").where("event_id", "=", id).executeTakeFirstOrThrow();
    return row.issue_id!;
  }
  const hashesOf = async (issueId: number) =>
    (await bench.store.db.selectFrom("issue_hashes").select(["hash", "grouping_config"]).where("issue_id", "=", issueId).execute()).map(
      (r) => r.grouping_config,
    );

  it("keeps old issues receiving their events through the transition, and computes only the new version after it", async () => {
    expect((await groupingState(bench.ctx, bench.projectId)).config).toBe(GROUPING_CONFIG);
    const declined = await digest("card declined");
    // The current version ignores the value when there are in-app frames: one issue.
    expect(await digest("card expired")).toBe(declined);

    const state = await upgradeGrouping({ ctx: bench.ctx, input: { projectId: bench.projectId, to: BY_VALUE.id, transitionDays: 90 } });
    expect(state).toMatchObject({ config: BY_VALUE.id, previous: GROUPING_CONFIG, transitioning: true });

    // During the transition the old issue still receives its events, and learns the new hash.
    expect(await digest("card declined")).toBe(declined);
    expect(await hashesOf(declined)).toEqual(expect.arrayContaining([GROUPING_CONFIG, BY_VALUE.id]));

    // A kind never seen gets an issue of the new version, holding only new-version hashes.
    const fresh = await digest("ledger locked", "LedgerError", "post");
    expect(fresh).not.toBe(declined);
    const issue = await bench.store.db.selectFrom("issues").select("grouping_config").where("id", "=", fresh).executeTakeFirstOrThrow();
    expect(issue.grouping_config).toBe(BY_VALUE.id);
    expect(new Set(await hashesOf(fresh))).toEqual(new Set([BY_VALUE.id]));

    // The transition ends: the hash the old issue learned still finds it...
    await bench.store.db
      .updateTable("projects")
      .set({ grouping_transition_until: Date.now() - 1 })
      .where("id", "=", bench.projectId)
      .execute();
    expect((await groupingState(bench.ctx, bench.projectId)).transitioning).toBe(false);
    expect(await digest("card declined")).toBe(declined);
    // ...but the old version is no longer computed: "card expired" never arrived during the
    // transition, so nothing taught the old issue its new hash, and it gets an issue of its own.
    const expired = await digest("card expired");
    expect(expired).not.toBe(declined);
  });

  it("refuses going back to an older version or to an unknown one", async () => {
    await expect(upgradeGrouping({ ctx: bench.ctx, input: { projectId: bench.projectId, to: GROUPING_CONFIG } })).rejects.toThrow(
      /not a newer grouping version/,
    );
    await expect(upgradeGrouping({ ctx: bench.ctx, input: { projectId: bench.projectId, to: "nope:1" } })).rejects.toThrow();
  });
});

describe.each(DIALECTS)("the grouping upgrade through the web API on %s", (dialect) => {
  let store: TestStore;
  let server: Server;
  let base = "";
  const tokens: Record<string, string> = {};

  beforeAll(async () => {
    setLogLevel("warn");
    registerGroupingStrategy(BY_VALUE);
    store = await openTestStore(dialect);
    const ctx = testCtx(store);
    for (const who of ["owner", "member"]) {
      await createUser({ ctx, input: { email: `${who}@example.com`, password: "password-123" } });
      tokens[who] = (await createToken({ ctx, input: { user: `${who}@example.com` } })).token;
    }
    const org = await createOrganization({ ctx, input: { slug: "acme", owner: "owner@example.com" } });
    const member = await store.db.selectFrom("users").select("id").where("email", "=", "member@example.com").executeTakeFirstOrThrow();
    await store.db
      .insertInto("memberships")
      .values({ organization_id: org.id, user_id: member.id, role: "member", created_at: Date.now() })
      .execute();
    await createProject({ ctx, input: { org: "acme", slug: "web" } });
    server = createServer((req, res) => {
      handleApi(ctx, req, res).catch((error: unknown) => res.writeHead(500).end(String(error)));
    });
    await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
    base = `http://127.0.0.1:${(server.address() as AddressInfo).port}/api/0/projects/acme/web/`;
  });
  afterAll(async () => {
    await new Promise<void>((resolve) => server.close(() => resolve()));
    await store.cleanup();
  });

  const call = async (who: string, method: string, body?: unknown) => {
    const response = await fetch(base, {
      method,
      headers: { authorization: `Bearer ${tokens[who]}`, "content-type": "application/json" },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    return { status: response.status, body: (await response.json()) as Record<string, unknown> };
  };

  it("shows the project's version and upgrades it for an owner, in Sentry's field names", async () => {
    const before = await call("member", "GET");
    expect(before.status).toBe(200);
    expect(before.body).toMatchObject({
      slug: "web",
      groupingConfig: GROUPING_CONFIG,
      secondaryGroupingConfig: null,
      groupingConfigUpgrades: [BY_VALUE.id],
    });
    expect((await call("member", "PUT", { groupingConfig: BY_VALUE.id })).status).toBe(403);
    expect((await call("owner", "PUT", { groupingConfig: BY_VALUE.id, color: "red" })).status).toBe(400);
    const after = await call("owner", "PUT", { groupingConfig: BY_VALUE.id, secondaryGroupingDays: 30 });
    expect(after.status).toBe(200);
    expect(after.body).toMatchObject({ groupingConfig: BY_VALUE.id, secondaryGroupingConfig: GROUPING_CONFIG });
    const expiry = Number(after.body.secondaryGroupingExpiry);
    expect(Math.abs(expiry - (Date.now() / 1000 + 30 * 86400))).toBeLessThan(3600);
    expect((await call("owner", "PUT", { groupingConfig: GROUPING_CONFIG })).status).toBe(400);
  });
});
