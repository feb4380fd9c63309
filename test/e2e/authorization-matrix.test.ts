import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { login } from "../../src/core/accounts/login";
import type { Ctx } from "../../src/core/context";
import { digestBatch } from "../../src/core/digest/batch";
import { DEFAULT_ENVELOPE_LIMITS } from "../../src/core/envelope/index";
import { SESSION_COOKIE } from "../../src/server/cookies";
import { buildEnvelope, eventItem, newEventId } from "../support/envelopes";
import { expected, ORGS, seedMatrix, WHO, type MatrixWorld, type OrgSlug, type Outcome, type Who } from "../support/matrix";
import { readSource, scanPage, sourceFiles } from "../support/permission-scan";
import { startServer, type TestServer } from "../support/server";
import { DIALECTS, openTestStore, testCtx, type TestStore } from "../support/stores";
import type { Permission } from "../../src/core/permissions/table";

/**
 * The pages' half of the authorization matrix (routes and actions:
 * test/integration/authorization-matrix.test.ts): every guarded page, generated from the
 * registrations, × everyone × three organizations, over HTTP against the built server. A page
 * the table refuses answers 404 (the not-found page; an organization's existence does not leak).
 */

const ROOT = join(import.meta.dirname, "..", "..");
const PAGES = sourceFiles(ROOT, "app")
  .filter((f) => f.endsWith("page.tsx"))
  .flatMap((file) => scanPage(file, readSource(ROOT, file)).registrations.slice(0, 1))
  // Public pages (sign-in, setup, an invitation's link) carry no guard: scanPage finds none.
  .filter((r) => r.permission);

interface Things {
  issueId: number;
  traceId: string;
}

/** The page's URL in an organization: each dynamic segment names a real thing there, optional ones are left out. */
function urlOf(file: string, org: OrgSlug, things: Things): string {
  const segments = file
    .replace(/^app\//, "")
    .replace(/\/?page\.tsx$/, "")
    .split("/")
    .filter((s) => s !== "" && !s.startsWith("[[..."));
  const value: Record<string, string> = {
    "[org]": org,
    "[project]": "web",
    "[issueId]": String(things.issueId),
    "[traceId]": things.traceId,
    "[team]": org,
    "[...platform]": "javascript",
    "[version]": "matrix-1.0",
  };
  return `/${segments
    .map((s) => {
      if (!s.startsWith("[")) return s;
      const v = value[s];
      if (v === undefined) throw new Error(`${file}: the matrix does not know what to put for ${s}; add it to urlOf`);
      return v;
    })
    .join("/")}`;
}

describe.each(DIALECTS)("the authorization matrix of pages on %s", (dialect) => {
  let store: TestStore;
  let ctx: Ctx;
  let world: MatrixWorld;
  let server: TestServer;
  const cookies = {} as Record<Who, string>;
  const things = {} as Record<OrgSlug, Things>;

  beforeAll(async () => {
    store = await openTestStore(dialect);
    ctx = testCtx(store);
    world = await seedMatrix(ctx, store);
    for (const org of ORGS) {
      const project = { id: world.webProjectIds[org] };
      const eventId = newEventId();
      const traceId = newEventId();
      const body = buildEnvelope({ event_id: eventId }, [
        eventItem(eventId, `matrix probe in ${org}`, {
          release: "matrix-1.0",
          contexts: { trace: { trace_id: traceId, span_id: "a1b2c3d4e5f60718" } },
        }),
      ]);
      await store.queue
        .insertInto("ingest_queue")
        .values({ project_id: project.id, key_id: 0, endpoint: "envelope", received_at: Date.now(), body })
        .execute();
      await digestBatch(ctx, { batchSize: 10, limits: DEFAULT_ENVELOPE_LIMITS });
      const event = await store.db.selectFrom("events").select("issue_id").where("event_id", "=", eventId).executeTakeFirstOrThrow();
      things[org] = { issueId: event.issue_id!, traceId };
    }
    for (const who of WHO) {
      const session = await login({
        ctx,
        input: { email: `${who}@example.com`, password: "password-123", ip: "127.0.0.1", userAgent: "matrix" },
      });
      cookies[who] = `${SESSION_COOKIE}=${session.token}`;
    }
    server = await startServer({ ...store.env, TELLTALE_SELF_DSN: "off" });
  });
  afterAll(async () => {
    await server?.stop();
    await store?.cleanup();
  });

  it("answers every guarded page as the permission table says, for everyone, in every organization", async () => {
    expect(PAGES.length).toBeGreaterThan(10);
    const cells: { who: Who; url: string; permission: string; expected: Outcome; status: number }[] = [];
    for (const page of PAGES) {
      const inOrg = page.file.includes("[org]");
      for (const who of WHO)
        for (const org of inOrg ? ORGS : (["acme"] as const)) {
          const url = urlOf(page.file, org, things[org]);
          const response = await fetch(server.url + url, { headers: { cookie: cookies[who] }, redirect: "manual" });
          await response.arrayBuffer();
          cells.push({
            who,
            url,
            permission: page.permission,
            expected: expected(who, org, page.permission as Permission),
            status: response.status,
          });
        }
    }
    // Allowed: the page renders (the /debug pages are off here, so they answer 404 to everyone).
    const wrong = cells.filter((c) => {
      if (c.url.startsWith("/debug/")) return c.status !== 404;
      return c.expected === "allow" ? c.status !== 200 : c.status !== 404;
    });
    expect(wrong).toEqual([]);
    expect(new Set(cells.map((c) => c.expected))).toEqual(new Set(["allow", "forbidden", "not_found"]));
    console.log(
      `authorization matrix of pages (${dialect}): ${cells.length} cells = ${PAGES.length} pages × ${WHO.length} people × ` +
        `up to ${ORGS.length} organizations; allowed ${cells.filter((c) => c.expected === "allow").length}, refused ${cells.filter((c) => c.expected !== "allow").length}`,
    );
  });
});
