import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import type { Ctx } from "../../src/core/context";
import { organizationFor } from "../../src/core/orgs/access";
import { setOpenMembership } from "../../src/core/orgs/members";
import { NOT_ALLOWED, type Permission } from "../../src/core/permissions/table";
import { createProject } from "../../src/core/projects/create-project";
import { createTeam, teamInOrg } from "../../src/core/teams/teams";
import { createToken } from "../../src/core/tokens/tokens";
import type { User } from "../../src/db/schema";
import { ACCOUNT_ROUTES, ROUTES } from "../../src/server/api/router";
import { LEGACY_ISSUE_ROUTES } from "../../src/server/api/legacy-issue-routes";
import { seedIssues } from "../support/issue-seeds";
import type { FormState } from "../../app/lib/forms";
import { startApiServer } from "../support/api-server";
import { expected, ORG_NOT_FOUND, ORGS, seedMatrix, WHO, type MatrixWorld, type OrgSlug, type Outcome, type Who } from "../support/matrix";
import { readSource, scanServerActions, sourceFiles, type Registration } from "../support/permission-scan";
import { DIALECTS, openTestStore, testCtx, type TestStore } from "../support/stores";

/**
 * The authorization matrix of issue 12, generated from the permission table's registrations:
 * every web API route and every server action (pages: test/e2e/authorization-matrix.test.ts) ×
 * each role, a superuser and an outsider × the organization they belong to, another one and the
 * internal one. Each cell's answer must be what the table says: allowed, 403 (a member without
 * the role) or 404 (not a member). Paths and forms name things that do not exist inside the
 * organization, so an allowed cell reaches its handler (which then answers 400 or 404 for the
 * missing thing) without changing anything; anything an allowed cell does change is put back.
 */

// Server actions run outside Next, as in permissions-actions.test.ts: the signed-in user and the
// runtime come from the test; redirects and not-found are thrown as Next would.
const session = vi.hoisted(() => ({ user: null as User | null, ctx: null as Ctx | null }));
vi.mock("next/cache", () => ({ revalidatePath: () => undefined }));
vi.mock("next/navigation", () => ({
  redirect: (to: string) => {
    throw Object.assign(new Error(`redirect to ${to}`), { matrix: "redirect" });
  },
  notFound: () => {
    throw Object.assign(new Error("not found"), { matrix: "not_found" });
  },
}));
vi.mock("next/headers", () => ({
  headers: async () => new Headers({ "user-agent": "matrix" }),
  cookies: async () => ({ get: () => undefined, set: () => undefined, delete: () => undefined }),
}));
vi.mock("../../app/lib/auth", () => ({
  requireUser: async () => {
    if (!session.user) throw new Error("no user signed in for this test");
    return session.user;
  },
  currentUser: async () => session.user,
  clientIp: async () => "127.0.0.1",
  setSessionCookie: async () => undefined,
  safeNext: (next: string) => next || "/",
}));
vi.mock("../../app/lib/app-runtime", () => ({ ctx: () => session.ctx }));

const ROOT = join(import.meta.dirname, "..", "..");
const ACTIONS: Registration[] = [...sourceFiles(ROOT, "app"), ...sourceFiles(ROOT, "src")]
  .flatMap((file) => scanServerActions(file, readSource(ROOT, file)).registrations)
  .filter((r) => !r.permission.startsWith("session:") && r.permission !== "invite:accept");
/** Public actions (sign-in, setup, sign-out, accepting an invitation) need no permission: they are not cells. */

const MISSING = "999999";
/** Every path parameter after the organization names something that does not exist. */
const fill = (path: string, org: string) => {
  let first = true;
  return `/api/0${path.replace(/\{\}/g, () => {
    if (first) return ((first = false), org);
    return MISSING;
  })}/`;
};

/** Form fields the actions read, all naming things that do not exist (or nothing). */
const FORM_FIELDS = ["project", "issue", "keyId", "tokenId", "invitation", "team", "member", "userId", "category"];

/** A route's answer as a cell's outcome: `hidden` tells a "not found" that hides the organization from one inside it. */
async function outcomeOf(response: Response, hidden: (detail: string) => boolean): Promise<Outcome | string> {
  const body = (await response.json().catch(() => ({}))) as { detail?: string };
  if (response.status === 403 && body.detail === NOT_ALLOWED) return "forbidden";
  if (response.status === 404 && hidden(body.detail ?? "")) return "not_found";
  return response.status === 401 || response.status >= 500 ? `${response.status} ${body.detail ?? ""}` : "allow";
}

interface Cell {
  who: Who;
  org: OrgSlug;
  registration: string;
  permission: string;
  expected: Outcome;
  got: Outcome | string;
}

// Each sweep makes a couple of thousand requests; beside another test file on two busy cores
// PostgreSQL's half has needed more than the default 30 s.
const SWEEP_TIMEOUT_MS = 120_000;

describe.each(DIALECTS)("the authorization matrix on %s", (dialect) => {
  let store: TestStore;
  let ctx: Ctx;
  let world: MatrixWorld;
  let api: { base: string; close(): Promise<void> };
  const tokens = {} as Record<Who, string>;
  const cells: Cell[] = [];

  beforeAll(async () => {
    store = await openTestStore(dialect);
    ctx = testCtx(store);
    session.ctx = ctx;
    world = await seedMatrix(ctx, store);
    for (const who of WHO) tokens[who] = (await createToken({ ctx, input: { user: `${who}@example.com` } })).token;
    api = await startApiServer(ctx);
  });
  afterAll(async () => {
    await api?.close();
    await store?.cleanup();
  });

  // Decision 0014: with open membership off, a project outside one's teams answers exactly as a
  // missing one — its trace (span count included) and every project route alike. First, so that
  // it sees the seeded roles whatever the sweeps below do.
  it("answers a member outside a closed project's team as if the project and its trace did not exist", async () => {
    const owner = await organizationFor(ctx, world.users.owner, "acme");
    await createTeam({ ctx, input: { access: owner, creatorId: world.users.owner.id, team: { slug: "vault" } } });
    const { project } = await createProject({ ctx, input: { org: "acme", slug: "closed", team: "vault" } });
    const [hidden, unknown] = ["ab".repeat(16), "cd".repeat(16)];
    const base = { project_id: project.id, trace_id: hidden };
    const row = { ...base, op: "http.server", status: "ok", start_timestamp: 1, timestamp: 2 };
    await store.db
      .insertInto("transactions")
      .values({ ...row, event_id: "ef".repeat(16), span_id: "1".repeat(16), name: "GET /vault", received_at: 2, data: Buffer.from("{}") })
      .execute();
    await store.db
      .insertInto("spans")
      .values({ ...row, span_id: "2".repeat(16), parent_span_id: "1".repeat(16), segment_id: "1".repeat(16), name: "db", data: "{}" })
      .execute();
    await store.db
      .insertInto("events")
      .values({
        ...base,
        ...{ event_id: "fe".repeat(16), issue_id: null, grouping_hash: null, type: "error", level: "error", title: "E" },
        ...{ timestamp: 2, received_at: 2, release: null, environment: null, data: Buffer.from("{}") },
      })
      .execute();
    // Member and admin see acme's "web" (its default team's), not "closed".
    const defaultTeam = await teamInOrg(ctx, owner.org.id, "acme");
    for (const who of ["member", "admin"] as const)
      await ctx.directory.addTeamMember(defaultTeam.id, world.users[who].id, "contributor", 0);
    await setOpenMembership(ctx, owner, false);
    const get = async (who: Who, path: string) => {
      const response = await fetch(`${api.base}/api/0${path.replace(/(\?|$)/, "/$1")}`, {
        headers: { authorization: `Bearer ${tokens[who]}` },
      });
      const body = (await response.text()).replaceAll(hidden, "ID").replaceAll(unknown, "ID");
      return { status: response.status, body: body.replaceAll("closed", "SLUG").replaceAll("absent", "SLUG") };
    };
    try {
      // The owner sees the trace, so there is something to hide.
      const full = JSON.parse((await get("owner", `/organizations/acme/trace/${hidden}`)).body) as { spanCount: number };
      expect(full.spanCount).toBe(1);
      for (const who of ["member", "admin"] as const) {
        const answer = await get(who, `/organizations/acme/trace/${hidden}`);
        expect(answer).toEqual(await get(who, `/organizations/acme/trace/${unknown}`));
        const found = JSON.parse((await get(who, `/organizations/acme/lookup?query=${hidden}`)).body) as { results: unknown[] };
        expect(found.results).toEqual([]);
        if (who === "member") {
          const owners = JSON.parse((await get("owner", `/organizations/acme/lookup?query=${hidden}`)).body) as { results: unknown[] };
          expect(owners.results).toHaveLength(1);
        }
        for (const route of ROUTES.filter((r) => r.method === "GET" && r.path.startsWith("/projects/{}/{}"))) {
          const path = (slug: string) => fill(route.path, "acme").replace(`/acme/${MISSING}`, `/acme/${slug}`).slice("/api/0".length, -1);
          expect({ route: route.path, ...(await get(who, path("closed"))) }).toEqual({
            route: route.path,
            ...(await get(who, path("absent"))),
          });
        }
      }
    } finally {
      for (const who of ["member", "admin"] as const) await ctx.directory.removeTeamMember(defaultTeam.id, world.users[who].id);
      await world.restore();
    }
  });

  it(
    "answers every web API route as the permission table says, for everyone, in every organization",
    async () => {
      expect(ROUTES.length).toBeGreaterThan(15);
      for (const route of ROUTES)
        for (const who of WHO)
          for (const org of ORGS) {
            const response = await fetch(api.base + fill(route.path, org), {
              method: route.method,
              headers: { authorization: `Bearer ${tokens[who]}`, "content-type": "application/json" },
              body: route.method === "GET" ? undefined : "{}",
            });
            const got = await outcomeOf(response, (detail) => ORG_NOT_FOUND.test(detail));
            // A route that needs a second row for some requests (removing someone else, not leaving):
            // the request here names someone else, so the second row applies where `when` says.
            const params = [
              org,
              ...Array.from(route.path.matchAll(/\{\}/g))
                .slice(1)
                .map(() => MISSING),
            ];
            const also = route.alsoNeeds?.when({ user: world.users[who], params, body: {} }) ? route.alsoNeeds.permission : null;
            const first = expected(who, org, route.permission);
            cells.push({
              who,
              org,
              registration: `${route.method} ${route.path}`,
              permission: also ? `${route.permission} + ${also}` : route.permission,
              expected: first === "allow" && also ? expected(who, org, also) : first,
              got,
            });
            if (route.method !== "GET") await world.restore();
          }
      for (const route of ACCOUNT_ROUTES)
        for (const who of WHO) {
          const response = await fetch(`${api.base}/api/0${route.path}/`, { headers: { authorization: `Bearer ${tokens[who]}` } });
          cells.push({
            who,
            org: "acme",
            registration: `${route.method} ${route.path}`,
            permission: route.permission,
            expected: "allow",
            got: response.status === 200 ? "allow" : String(response.status),
          });
        }
      const wrong = cells.filter((c) => c.got !== c.expected);
      expect(wrong).toEqual([]);
    },
    SWEEP_TIMEOUT_MS,
  );

  // `/api/0/issues/{id}/…` names no organization: each cell asks for an issue that exists in
  // the cell's organization, which only that organization's readers may see (404 otherwise).
  it("answers the legacy issue paths as the permission table says of the issue's organization", async () => {
    const before = cells.length;
    for (const org of ORGS) {
      const [issueId] = await seedIssues(store.db, world.webProjectIds[org], [{ title: `legacy ${org}` }]);
      for (const route of LEGACY_ISSUE_ROUTES)
        for (const who of WHO) {
          const response = await fetch(`${api.base}/api/0${route.path.replace("{}", String(issueId))}/`, {
            headers: { authorization: `Bearer ${tokens[who]}` },
          });
          const got = await outcomeOf(response, (detail) => detail === `issue ${issueId} does not exist`);
          cells.push({
            who,
            org,
            registration: `${route.method} ${route.path}`,
            permission: route.permission,
            expected: expected(who, org, route.permission),
            got,
          });
        }
    }
    expect(cells.slice(before).filter((c) => c.got !== c.expected)).toEqual([]);
  });

  it(
    "answers every server action as the permission table says, for everyone, in every organization",
    async () => {
      expect(ACTIONS.length).toBeGreaterThan(15);
      const before = cells.length;
      for (const registration of ACTIONS) {
        const module = (await import(join(ROOT, registration.file))) as Record<
          string,
          (prev: FormState, form: FormData) => Promise<FormState>
        >;
        const run = module[registration.name]!;
        for (const who of WHO)
          for (const org of ORGS) {
            session.user = world.users[who];
            const form = new FormData();
            form.set("org", org);
            for (const name of FORM_FIELDS) form.set(name, MISSING);
            let got: Outcome | string;
            try {
              const state = await run({}, form);
              got =
                state.code === "forbidden"
                  ? "forbidden"
                  : state.code === "not_found" && ORG_NOT_FOUND.test(state.error ?? "")
                    ? "not_found"
                    : "allow";
            } catch (error) {
              const kind = (error as { matrix?: string }).matrix;
              got = kind === "redirect" ? "allow" : kind === "not_found" ? "not_found" : `threw ${String(error)}`;
            }
            cells.push({
              who,
              org,
              registration: `${registration.file} ${registration.name}`,
              permission: registration.permission,
              expected: expected(who, org, registration.permission as Permission),
              got,
            });
            await world.restore();
          }
      }
      const mine = cells.slice(before);
      expect(mine.filter((c) => c.got !== c.expected)).toEqual([]);
    },
    SWEEP_TIMEOUT_MS,
  );

  it("covers refusals and permissions alike, and reports its size", () => {
    const outcomes = new Set(cells.map((c) => c.expected));
    expect(outcomes).toEqual(new Set(["allow", "forbidden", "not_found"]));
    const registrations = new Set(cells.map((c) => c.registration));
    console.log(
      `authorization matrix (${dialect}): ${cells.length} cells = ${registrations.size} registrations (routes and actions) × ${WHO.length} people × ` +
        `${ORGS.length} organizations; allowed ${cells.filter((c) => c.expected === "allow").length}, ` +
        `403 ${cells.filter((c) => c.expected === "forbidden").length}, 404 ${cells.filter((c) => c.expected === "not_found").length}`,
    );
  });
});
