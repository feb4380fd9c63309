import { sql } from "kysely";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { DIALECTS, openTestStore, testCtx, type TestStore } from "../../test/support/stores";
import type { Ctx } from "../core/context";
import { planStatements } from "../../test/support/query-plans";
import { createOrganization } from "../core/orgs/create-org";
import { createProject } from "../core/projects/create-project";
import { applyIssueQuery, environmentsSeen, issueQueryCondition } from "./issue-search";
import { parseIssueQuery } from "../core/search/parse";
import { seedIssues, seedUser } from "../../test/support/issue-seeds";
import { listIssues } from "../core/issues/list";

const NOW = 1_700_000_000_000; // 2023-11-14T22:13:20Z
const H = 3_600_000;
const D = 24 * H;

describe.each(DIALECTS)("issue search conditions on %s", (dialect) => {
  let store: TestStore;
  let ctx: Ctx;
  let projectId: number;
  let jane: number;
  const names = new Map<number, string>();

  beforeAll(async () => {
    store = await openTestStore(dialect);
    ctx = testCtx(store, { now: () => NOW });
    await createOrganization({ ctx, input: { slug: "acme" } });
    projectId = (await createProject({ ctx, input: { org: "acme", slug: "web" } })).project.id;
    jane = await seedUser(store.db, "jane@example.com");
    const bob = await seedUser(store.db, "bob@example.com");
    const [checkout, reference, disk, timeout] = await seedIssues(store.db, projectId, [
      {
        title: "TypeError: Cannot read properties of undefined (reading 'id')",
        culprit: "app/checkout.js in pay",
        level: "error",
        status: "unresolved",
        substatus: "new",
        times_seen: 50,
        user_count: 10,
        first_seen: NOW - 2 * H,
        last_seen: NOW - 1 * H,
        first_release: "1.2.0",
        last_release: "1.2.0",
        metadata: JSON.stringify({ type: "TypeError", value: "Cannot read properties of undefined (reading 'id')" }),
        assignee_id: jane,
        tags: [
          ["level", "error"],
          ["release", "1.2.0"],
          ["environment", "production"],
          ["user.email", "a@x.com"],
          ["browser.name", "Chrome"],
        ],
      },
      {
        title: "ReferenceError: foo is not defined",
        culprit: "lib/util.js in helper",
        level: "warning",
        status: "unresolved",
        substatus: "regressed",
        times_seen: 5,
        user_count: 1,
        first_seen: NOW - 10 * D,
        last_seen: NOW - 3 * H,
        first_release: "1.1.0",
        last_release: "1.2.1",
        metadata: JSON.stringify({ type: "ReferenceError", value: "foo is not defined" }),
        assignee_id: bob,
        tags: [
          ["release", "1.1.0"],
          ["release", "1.2.1"],
          ["environment", "staging"],
          ["browser.name", "Firefox"],
          ["os.name", "Windows"],
        ],
      },
      {
        title: "Disk 100%_full on /var",
        culprit: "worker in flush",
        level: "fatal",
        status: "resolved",
        substatus: "resolved",
        times_seen: 500,
        user_count: 0,
        first_seen: NOW - 40 * D,
        last_seen: NOW - 20 * D,
        tags: [
          ["release", "2.0_beta%1"],
          ["path", "C:\\temp\\*.log"],
          ["environment", "production"],
        ],
      },
      {
        title: "Timeout while loading résumé Ünïcode",
        culprit: "api in fetch",
        level: "info",
        status: "ignored",
        substatus: "archived_forever",
        times_seen: 12,
        user_count: 3,
        first_seen: NOW - 5 * D,
        last_seen: NOW - 2 * D,
        first_release: "1.2.0",
        tags: [
          ["user.email", "b@x.com"],
          ["environment", "production"],
          ["release", "1.2.10"],
        ],
      },
    ]);
    Object.entries({ checkout, reference, disk, timeout }).forEach(([name, id]) => names.set(id!, name));
    // A merged issue matches text queries but the helper below, like the stream, leaves it out.
    await seedIssues(store.db, projectId, [
      { title: "TypeError: merged duplicate", merged_into_id: checkout!, tags: [["release", "1.2.0"]] },
    ]);
    await store.db
      .insertInto("issue_bookmarks")
      .values([
        { issue_id: timeout!, user_id: jane },
        { issue_id: reference!, user_id: bob },
      ])
      .execute();
  });
  afterAll(() => store.cleanup());

  async function find(text: string, userId: number | null = jane): Promise<string[]> {
    const parsed = parseIssueQuery(text);
    if (!parsed.ok) throw new Error(parsed.error.message);
    const q = store.db
      .selectFrom("issues")
      .select("issues.id")
      .where("issues.project_id", "=", projectId)
      .where("issues.merged_into_id", "is", null);
    const rows = await applyIssueQuery(q, parsed.query, { dialect, userId, now: NOW }).orderBy("issues.id").execute();
    return rows.map((r) => names.get(r.id) ?? `#${r.id}`);
  }

  const ALL = ["checkout", "reference", "disk", "timeout"];

  it("adds nothing for an empty query (the caller picks the default status)", async () => {
    expect(await find("")).toEqual(ALL);
  });

  it.each([
    ["is:unresolved", ["checkout", "reference"]],
    ["is:resolved", ["disk"]],
    ["is:ignored", ["timeout"]],
    ["is:archived", ["timeout"]],
    ["!is:unresolved", ["disk", "timeout"]],
    ["is:regressed", ["reference"]],
    ["is:new", ["checkout"]],
    ["is:assigned", ["checkout", "reference"]],
    ["is:unassigned", ["disk", "timeout"]],
    ["!is:unassigned", ["checkout", "reference"]],
  ])("filters status and substatus: %s", async (query, expected) => {
    expect(await find(query)).toEqual(expected);
  });

  it.each([
    ["assigned:me", ["checkout"]],
    ["!assigned:me", ["reference", "disk", "timeout"]],
    ["assigned:bob@example.com", ["reference"]],
    ["assigned:BOB@example.com", ["reference"]],
    ["assigned:none", ["disk", "timeout"]],
    ["assigned:[me, none]", ["checkout", "disk", "timeout"]],
    ["assigned:nobody@example.com", []],
    ["!assigned:nobody@example.com", ALL],
    ["is:bookmarked", ["timeout"]],
    ["bookmarks:me", ["timeout"]],
    ["!bookmarks:me", ["checkout", "reference", "disk"]],
    ["bookmarks:bob@example.com", ["reference"]],
    ["bookmarks:[me, bob@example.com]", ["reference", "timeout"]],
  ])("filters assignees and bookmarks for the signed-in user: %s", async (query, expected) => {
    expect(await find(query)).toEqual(expected);
  });

  it("matches nothing for `me` without a signed-in user, and everything for its negation", async () => {
    expect(await find("assigned:me", null)).toEqual([]);
    expect(await find("bookmarks:me", null)).toEqual([]);
    expect(await find("is:bookmarked", null)).toEqual([]);
    expect(await find("!assigned:me", null)).toEqual(ALL);
    expect(await find("assigned:[me, none]", null)).toEqual(["disk", "timeout"]);
  });

  it.each([
    ["level:error", ["checkout"]],
    ["level:[fatal, warning]", ["reference", "disk"]],
    ["!level:error", ["reference", "disk", "timeout"]],
    ["tags[level]:error", ["checkout"]],
  ])("filters the issue's level column (and the level tag with tags[]): %s", async (query, expected) => {
    expect(await find(query)).toEqual(expected);
  });

  it.each([
    ["release:1.2.0", ["checkout"]],
    ["release:1.2.1", ["reference"]],
    ["release:1.2.*", ["checkout", "reference", "timeout"]],
    ["release:1.2.1*", ["reference", "timeout"]],
    ["!release:1.2.*", ["disk"]],
    ["release:[1.1.0, 2.0*]", ["reference", "disk"]],
    ["!release:[1.1.0, 2.0*]", ["checkout", "timeout"]],
    ["release:*", ALL],
    ["environment:production", ["checkout", "disk", "timeout"]],
    ["environment:production !release:1.2.10", ["checkout", "disk"]],
    ["user.email:a@x.com", ["checkout"]],
    ["!user.email:a@x.com", ["reference", "disk", "timeout"]],
    ["browser.name:Chrome", ["checkout"]],
    ["os.name:Windows", ["reference"]],
    ["user.id:42", []],
  ])("filters tags with EXISTS, negation with NOT EXISTS: %s", async (query, expected) => {
    expect(await find(query)).toEqual(expected);
  });

  it("compares exact tag values case-sensitively and wildcards case-insensitively, as Sentry does", async () => {
    expect(await find("browser.name:chrome")).toEqual([]);
    expect(await find("browser.name:chr*")).toEqual(["checkout"]);
  });

  it.each([
    ["release:2.0_beta%1", ["disk"]],
    ["release:2.0_*", ["disk"]],
    // Unescaped, `_` would match the dots of 1.2.0 and `%` would match every release.
    ["release:1_2*", []],
    ["release:*%*", ["disk"]],
    // `\%` is no escape in search syntax: a literal backslash, then `%`.
    ["release:*\\%*", []],
    ["release:*_*", ["disk"]],
    // A literal backslash and a literal asterisk in a value, exactly and by wildcard.
    ["path:C:\\\\temp\\\\\\*.log", ["disk"]],
    ["path:C:\\temp\\\\\\*.log", ["disk"]],
    ["path:C:\\\\temp\\\\*", ["disk"]],
    ["path:*\\*.log", ["disk"]],
    ["path:*\\*x", []],
    ["path:C:\\\\temp\\\\x.log", []],
  ])("escapes LIKE's own characters in values: %s", async (query, expected) => {
    expect(await find(query)).toEqual(expected);
  });

  it.each([
    ["TypeError", ["checkout"]],
    ["typeerror", ["checkout"]],
    ["cannot read", ["checkout"]],
    ['"read properties"', ["checkout"]],
    ['"properties read"', []],
    ["checkout.js", ["checkout"]],
    ["in helper", ["reference"]],
    ["!TypeError", ["reference", "disk", "timeout"]],
    ["Type*Error", ["checkout"]],
    ["error", ["checkout", "reference"]],
    ['message:"not defined"', ["reference"]],
    ["!message:error", ["disk", "timeout"]],
    ["résumé", ["timeout"]],
    ["100%_full", ["disk"]],
    ["_", ["disk"]],
    ["%", ["disk"]],
    ["(reading", ["checkout"]],
  ])("matches free text against title and culprit: %s", async (query, expected) => {
    expect(await find(query)).toEqual(expected);
  });

  it("folds the case of non-ASCII letters on PostgreSQL as its locale does, on SQLite not at all", async () => {
    const { folded } = await sql<{ folded: string }>`select lower('RÉSUMÉ') as folded`.execute(store.db).then((r) => r.rows[0]!);
    const foldsUnicode = folded === "résumé";
    expect(foldsUnicode).toBe(dialect === "postgres" ? foldsUnicode : false);
    expect(await find("RÉSUMÉ")).toEqual(foldsUnicode ? ["timeout"] : []);
    expect(await find("ünïcode")).toEqual(foldsUnicode ? ["timeout"] : []);
    expect(await find("Ünïcode")).toEqual(["timeout"]);
  });

  it.each([
    ['title:"ReferenceError: foo is not defined"', ["reference"]],
    ["title:Reference*", ["reference"]],
    ["title:reference*", ["reference"]],
    ["title:ReferenceError", []],
    ["firstRelease:1.2.0", ["checkout", "timeout"]],
    ["firstRelease:1.*", ["checkout", "reference", "timeout"]],
    // The disk issue has no first release: it is "not 1.2.0" rather than unknown.
    ["!firstRelease:1.2.0", ["reference", "disk"]],
  ])("filters the title and first release columns: %s", async (query, expected) => {
    expect(await find(query)).toEqual(expected);
  });

  it.each([
    ["has:os.name", ["reference"]],
    ["!has:user.email", ["reference", "disk"]],
    ["has:release", ALL],
    ["has:nothing", []],
  ])("checks for a tag with has: %s", async (query, expected) => {
    expect(await find(query)).toEqual(expected);
  });

  it.each([
    ["times_seen:>10", ["checkout", "disk", "timeout"]],
    ["times_seen:>=50", ["checkout", "disk"]],
    ["times_seen:5", ["reference"]],
    ["times_seen:<12", ["reference"]],
    ["times_seen:<=12", ["reference", "timeout"]],
    ["!times_seen:>10", ["reference"]],
    ["times_seen:>0.4k", ["disk"]],
    ["user_count:>=3", ["checkout", "timeout"]],
    ["user_count:0", ["disk"]],
  ])("compares counts: %s", async (query, expected) => {
    expect(await find(query)).toEqual(expected);
  });

  it.each([
    ["firstSeen:-24h", ["checkout"]],
    ["age:-7d", ["checkout", "timeout"]],
    ["firstSeen:+7d", ["reference", "disk"]],
    ["lastSeen:-1d", ["checkout", "reference"]],
    ["lastSeen:+1w", ["disk"]],
    ["age:+3d age:-30d", ["reference", "timeout"]],
    ["!firstSeen:-24h", ["reference", "disk", "timeout"]],
    ["lastSeen:-90m", ["checkout"]],
    ["firstSeen:2023-11-14", ["checkout"]],
    ["firstSeen:>=2023-11-09", ["checkout", "timeout"]],
    ["lastSeen:<2023-11-01", ["disk"]],
    ["firstSeen:2023-11-14T20:15:00Z", ["checkout"]],
    ["firstSeen:2023-11-14T22:15:00+02:00", ["checkout"]],
    // The exact-time window runs from 5 minutes before to 6 minutes after, as in Sentry.
    ["firstSeen:2023-11-14T20:18:20Z", ["checkout"]],
    ["firstSeen:2023-11-14T20:18:21Z", []],
    ["firstSeen:2023-11-14T20:07:21Z", ["checkout"]],
    ["firstSeen:2023-11-14T20:07:20Z", []],
  ])("compares dates, relative to now or absolute: %s", async (query, expected) => {
    expect(await find(query)).toEqual(expected);
  });

  it.each([
    ["is:unresolved level:error TypeError", ["checkout"]],
    ["is:unresolved !assigned:me release:1.*", ["reference"]],
    ["is:unresolved is:resolved", []],
    ["environment:production times_seen:>10 !is:resolved", ["checkout", "timeout"]],
  ])("combines terms with AND: %s", async (query, expected) => {
    expect(await find(query)).toEqual(expected);
  });

  it("searches the exception's type and value with error.type: and error.value:", async () => {
    expect(await find("error.type:TypeError")).toEqual(["checkout"]);
    expect(await find('error.value:"foo is not defined"')).toEqual(["reference"]);
    expect(await find("error.type:*error")).toEqual(["checkout", "reference"]);
    expect(await find("!error.type:TypeError")).toEqual(["reference", "disk", "timeout"]);
    expect(await find("error.type:[TypeError, ReferenceError] error.value:foo*")).toEqual(["reference"]);
  });

  it("derives issue.priority from the level: fatal and error high, warning medium, info and debug low", async () => {
    expect(await find("issue.priority:high")).toEqual(["checkout", "disk"]);
    expect(await find("issue.priority:medium")).toEqual(["reference"]);
    expect(await find("issue.priority:[medium, low]")).toEqual(["reference", "timeout"]);
    expect(await find("!issue.priority:high")).toEqual(["reference", "timeout"]);
  });

  it("finds the project's newest release for release:latest — a created release first, else the last one seen", async () => {
    // No release made through the API: the release of the most recently seen issue (checkout's).
    expect(await find("release:latest")).toEqual(["checkout"]);
    const org = await store.db.selectFrom("projects").select("organization_id").where("id", "=", projectId).executeTakeFirstOrThrow();
    const release = await store.db
      .insertInto("releases")
      .values({ organization_id: org.organization_id, version: "1.2.1", date_created: NOW })
      .returning("id")
      .executeTakeFirstOrThrow();
    await store.db.insertInto("release_projects").values({ release_id: release.id, project_id: projectId }).execute();
    try {
      expect(await find("release:latest")).toEqual(["reference"]);
      expect(await find("release:[latest, 2.0_beta%1]")).toEqual(["reference", "disk"]);
      expect(await find("!release:latest")).toEqual(["checkout", "disk", "timeout"]);
    } finally {
      await store.db.deleteFrom("release_projects").where("release_id", "=", release.id).execute();
      await store.db.deleteFrom("releases").where("id", "=", release.id).execute();
    }
  });

  it("refuses a key that is neither a property nor a tag these projects' issues carry, with a message", async () => {
    const list = (query: string) => listIssues(ctx, { projectIds: [projectId], query, sort: "date", limit: 10, user: null });
    expect(await list("is:unresolved bogus:field")).toEqual({
      ok: false,
      error: { message: expect.stringContaining('Unknown search key "bogus"'), position: 14 },
    });
    expect((await list("tags[nope]:x")).ok).toBe(false);
    // A custom tag some issue carries, and a built-in tag none carries yet, are searched.
    expect(await list("path:*")).toMatchObject({ ok: true, issues: [expect.objectContaining({ title: "Disk 100%_full on /var" })] });
    expect(await list("url.domain:example.com")).toMatchObject({ ok: true, issues: [] });
  });

  it("composes with a select that joins other tables", async () => {
    const parsed = parseIssueQuery("is:unresolved level:warning");
    if (!parsed.ok) throw new Error(parsed.error.message);
    const rows = await store.db
      .selectFrom("issues")
      .innerJoin("projects", "projects.id", "issues.project_id")
      .select(["issues.id", "projects.slug"])
      .where(issueQueryCondition(parsed.query, { dialect, userId: jane, now: NOW }))
      .execute();
    expect(rows.map((r) => [names.get(r.id), r.slug])).toEqual([["reference", "web"]]);
  });

  if (dialect === "sqlite") {
    it("finds environments by seeking from one name to the next, not by reading every issue's environment rows", async () => {
      const planned = await planStatements(store, async (db) => {
        expect(await environmentsSeen(db, [projectId], 50)).toEqual(["production", "staging"]);
      });
      expect(planned).toHaveLength(1);
      const steps = planned[0]!.steps;
      // From one name to the next (the first is the index's minimum), and one seek per name for an issue of the projects.
      expect(steps).toContainEqual(expect.stringMatching(/issue_tags_key_value \(key=\? AND value>\?\)/));
      expect(steps).toContainEqual(expect.stringMatching(/issue_tags_key_value \(key=\? AND value=\?\)/));
    });
  }
});
