import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { createUser } from "../../src/core/accounts/create-user";
import type { Ctx } from "../../src/core/context";
import { digestBatch } from "../../src/core/digest/batch";
import { DEFAULT_ENVELOPE_LIMITS } from "../../src/core/envelope/index";
import { createOrganization } from "../../src/core/orgs/create-org";
import { NOT_ALLOWED } from "../../src/core/permissions/table";
import { createProject } from "../../src/core/projects/create-project";
import type { Project, ProjectKey, Role, User } from "../../src/db/schema";
import { buildEnvelope, newEventId } from "../support/envelopes";
import { DIALECTS, openTestStore, testCtx, type TestStore } from "../support/stores";

// The actions run outside Next: the signed-in user and the runtime come from the test, and
// revalidation (which needs a Next request) is a no-op.
const session = vi.hoisted(() => ({ user: null as User | null, ctx: null as Ctx | null }));
vi.mock("next/cache", () => ({ revalidatePath: () => undefined }));
vi.mock("../../app/lib/auth", () => ({
  requireUser: async () => {
    if (!session.user) throw new Error("no user signed in for this test");
    return session.user;
  },
  // The action wrapper records the client address in the audit log.
  clientIp: async () => "127.0.0.1",
}));
vi.mock("../../app/lib/app-runtime", () => ({ ctx: () => session.ctx }));

const { rotateKeyAction, removeQuotaAction, setKeyActiveAction, saveFiltersAction, setQuotaAction } =
  await import("../../app/actions/projects");
const { triageAction } = await import("../../app/actions/issues");
const { createTeamAction } = await import("../../app/actions/teams");
const { loginAction } = await import("../../app/actions/session");

function form(fields: Record<string, string | number>): FormData {
  const f = new FormData();
  for (const [k, v] of Object.entries(fields)) f.set(k, String(v));
  return f;
}

describe.each(DIALECTS)("server actions ask the permission table on %s", (dialect) => {
  let store: TestStore;
  let ctx: Ctx;
  let project: Project;
  let key: ProjectKey;
  const users = {} as Record<Role | "outsider", User>;
  const as = (who: Role | "outsider") => {
    session.user = users[who];
  };
  /** One issue, digested from a real envelope as ingest would queue it. */
  async function storedIssue(): Promise<number> {
    const id = newEventId();
    const payload = {
      event_id: id,
      platform: "python",
      timestamp: Date.now() / 1000,
      exception: { values: [{ type: "PermissionProbe", value: "boom" }] },
    };
    const body = buildEnvelope({ event_id: id }, [{ type: "event", payload: JSON.stringify(payload) }]);
    await store.queue
      .insertInto("ingest_queue")
      .values({ project_id: project.id, key_id: 0, endpoint: "envelope", received_at: Date.now(), body })
      .execute();
    await digestBatch(ctx, { batchSize: 50, limits: DEFAULT_ENVELOPE_LIMITS });
    return (await store.db.selectFrom("events").select("issue_id").where("event_id", "=", id).executeTakeFirstOrThrow()).issue_id!;
  }
  const keyRow = () => store.db.selectFrom("project_keys").select(["is_active"]).where("id", "=", key.id).executeTakeFirstOrThrow();

  beforeAll(async () => {
    store = await openTestStore(dialect);
    ctx = testCtx(store);
    session.ctx = ctx;
    for (const who of ["owner", "admin", "member", "outsider"] as const) {
      users[who] = await createUser({ ctx, input: { email: `${who}@example.com`, password: "password-123" } });
    }
    const org = await createOrganization({ ctx, input: { slug: "acme", owner: "owner@example.com" } });
    await createOrganization({ ctx, input: { slug: "elsewhere", owner: "outsider@example.com" } });
    for (const role of ["admin", "member"] as const) {
      await store.db
        .insertInto("memberships")
        .values({ organization_id: org.id, user_id: users[role].id, role, created_at: Date.now() })
        .execute();
    }
    ({ project, key } = await createProject({ ctx, input: { org: "acme", slug: "web" } }));
  });
  afterAll(async () => {
    await store.cleanup();
  });

  it("answers a member's rotate, enable/disable and quota removal with the typed not-allowed result and changes nothing", async () => {
    as("member");
    await setQuotaAction({}, form({ org: "acme", project: "web", category: "error", count: 5, window: 60 })).then((s) =>
      expect(s.code).toBe("forbidden"),
    );
    const refusal = { error: NOT_ALLOWED, code: "forbidden" };
    expect(await rotateKeyAction({}, form({ org: "acme", project: "web", keyId: key.id }))).toEqual(refusal);
    expect(await setKeyActiveAction({}, form({ org: "acme", project: "web", keyId: key.id, active: "0" }))).toEqual(refusal);
    expect(await removeQuotaAction({}, form({ org: "acme", project: "web", category: "error" }))).toEqual(refusal);
    expect(await saveFiltersAction({}, form({ org: "acme", project: "web" }))).toEqual(refusal);
    expect(await keyRow()).toEqual({ is_active: 1 });
    expect(await store.db.selectFrom("project_keys").select("id").where("project_id", "=", project.id).execute()).toHaveLength(1);
  });

  it("lets an admin rotate a key, with a notice", async () => {
    as("admin");
    const state = await rotateKeyAction({}, form({ org: "acme", project: "web", keyId: key.id }));
    expect(state).toEqual({ notice: expect.stringContaining("Rotated") });
    expect(await keyRow()).toEqual({ is_active: 0 });
    expect(await store.db.selectFrom("project_keys").select("id").where("project_id", "=", project.id).execute()).toHaveLength(2);
  });

  it("lets an owner set and remove a quota", async () => {
    as("owner");
    expect((await setQuotaAction({}, form({ org: "acme", project: "web", category: "error", count: 5, window: 60 }))).notice).toBeDefined();
    expect((await removeQuotaAction({}, form({ org: "acme", project: "web", category: "error" }))).notice).toBeDefined();
    expect(await store.db.selectFrom("project_quotas").selectAll().where("project_id", "=", project.id).execute()).toEqual([]);
  });

  it("lets a member triage: a member's permission, not an admin's", async () => {
    as("member");
    const issueId = await storedIssue();
    const f = form({ org: "acme", action: "resolve", issue: issueId });
    expect(await triageAction({}, f)).toEqual({ notice: "Updated." });
    expect(await store.db.selectFrom("issues").select("status").where("id", "=", issueId).executeTakeFirstOrThrow()).toEqual({
      status: "resolved",
    });
  });

  it("tells a user of another organization that it does not exist, not that they lack a role", async () => {
    as("outsider");
    const state = await rotateKeyAction({}, form({ org: "acme", project: "web", keyId: key.id }));
    expect(state).toEqual({ error: "organization 'acme' does not exist", code: "not_found" });
    expect(await triageAction({}, form({ org: "acme", action: "unresolve", issue: await storedIssue() }))).toMatchObject({
      code: "not_found",
    });
  });

  // PostgreSQL refuses a NUL in text with an error; every action refuses it first, as a form error.
  it("answers a NUL in any field (an organization, a team's name, a sign-in email) with a form error, storing nothing", async () => {
    as("owner");
    const refused = { error: expect.stringContaining("NUL"), code: "invalid_input", fieldErrors: expect.any(Object) };
    expect(await createTeamAction({}, form({ org: "acme", slug: "nul-team", name: "a\u0000b" }))).toMatchObject({
      ...refused,
      fieldErrors: { name: expect.any(String) },
    });
    expect(await createTeamAction({}, form({ org: "ac\u0000me", slug: "nul-team" }))).toMatchObject(refused);
    expect(await store.db.selectFrom("teams").select("id").where("slug", "=", "nul-team").execute()).toEqual([]);
    expect(await loginAction({}, form({ email: "a\u0000@x.io", password: "password-123" }))).toMatchObject({
      ...refused,
      fieldErrors: { email: expect.any(String) },
    });
  });
});
