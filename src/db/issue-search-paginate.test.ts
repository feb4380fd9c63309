import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { DIALECTS, openTestStore, testCtx, type TestStore } from "../../test/support/stores";
import type { Ctx } from "../core/context";
import { createOrganization } from "../core/orgs/create-org";
import { createProject } from "../core/projects/create-project";
import { applyIssueQuery, fetchIssuePage } from "./issue-search";
import { parseIssueQuery } from "../core/search/parse";
import { ISSUE_SORTS, decodeIssueCursor, encodeIssueCursor, type IssueSort } from "../core/search/sort";
import { seedIssues, type IssueSeed } from "../../test/support/issue-seeds";

const NOW = 1_700_000_000_000;
const H = 3_600_000;

interface Row {
  id: number;
  status: string;
  last_seen: number;
  first_seen: number;
  times_seen: number;
  user_count: number;
}

interface PageRequest {
  query?: string;
  sort?: IssueSort;
  cursor?: string | null;
  limit?: number;
}

describe.each(DIALECTS)("keyset pagination of issue searches on %s", (dialect) => {
  let store: TestStore;
  let ctx: Ctx;
  let projectId: number;
  let rows: Row[];

  beforeAll(async () => {
    store = await openTestStore(dialect);
    ctx = testCtx(store, { now: () => NOW });
    await createOrganization({ ctx, input: { slug: "acme" } });
    projectId = (await createProject({ ctx, input: { org: "acme", slug: "web" } })).project.id;
    // Few distinct values per column, so that most page boundaries fall inside a run of ties.
    const seeds: IssueSeed[] = Array.from({ length: 23 }, (_, i) => ({
      title: `Error ${i}`,
      status: i % 3 === 0 ? "resolved" : "unresolved",
      last_seen: NOW - (i % 4) * H,
      first_seen: NOW - (i % 6) * 24 * H,
      times_seen: (i * 7) % 3,
      user_count: i % 5,
    }));
    const ids = await seedIssues(store.db, projectId, seeds);
    rows = ids.map((id, i) => {
      const s = seeds[i]!;
      return {
        id,
        status: s.status!,
        last_seen: s.last_seen!,
        first_seen: s.first_seen!,
        times_seen: s.times_seen!,
        user_count: s.user_count!,
      };
    });
  });
  afterAll(() => store.cleanup());

  /** What a caller (the issue stream, the web API) does with this folder's pieces. */
  async function page(req: PageRequest) {
    const sort = req.sort ?? "date";
    const parsed = parseIssueQuery(req.query ?? "");
    if (!parsed.ok) throw new Error(parsed.error.message);
    const cursor = req.cursor ? decodeIssueCursor(req.cursor, sort) : null;
    if (cursor && !cursor.ok) throw new Error(cursor.message);
    const qb = applyIssueQuery(store.db.selectFrom("issues").selectAll("issues").where("issues.project_id", "=", projectId), parsed.query, {
      dialect,
      userId: null,
      now: NOW,
    });
    return fetchIssuePage(qb, { sort, cursor: cursor?.cursor ?? null, limit: req.limit ?? 25 });
  }

  function expectedOrder(sort: IssueSort, keep: (r: Row) => boolean = () => true): number[] {
    const column = ISSUE_SORTS[sort];
    return rows
      .filter(keep)
      .sort((a, b) => b[column] - a[column] || b.id - a.id)
      .map((r) => r.id);
  }

  async function allPages(req: PageRequest): Promise<{ ids: number[]; pages: number }> {
    const ids: number[] = [];
    let cursor = req.cursor ?? null;
    let pages = 0;
    do {
      const p = await page({ ...req, cursor });
      expect(p.rows.length).toBeLessThanOrEqual(req.limit ?? 25);
      ids.push(...p.rows.map((r) => r.id));
      cursor = p.nextCursor;
      pages++;
      expect(pages).toBeLessThan(50);
    } while (cursor);
    return { ids, pages };
  }

  it.each(Object.keys(ISSUE_SORTS) as IssueSort[])("pages through sort=%s without duplicates or gaps, ties broken by id", async (sort) => {
    for (const limit of [1, 5, 7, 23, 100]) {
      const { ids, pages } = await allPages({ sort, limit });
      expect(ids).toEqual(expectedOrder(sort));
      expect(new Set(ids).size).toBe(ids.length);
      expect(pages).toBe(Math.max(1, Math.ceil(23 / limit)));
    }
  });

  it("pages through a filtered search", async () => {
    const { ids } = await allPages({ query: "is:unresolved", sort: "freq", limit: 4 });
    expect(ids).toEqual(expectedOrder("freq", (r) => r.status === "unresolved"));
  });

  it("gives no next cursor when the last page is exactly full", async () => {
    const p = await page({ limit: 23 });
    expect(p.rows).toHaveLength(23);
    expect(p.nextCursor).toBeNull();
    expect((await page({ limit: 22 })).nextCursor).not.toBeNull();
  });

  it("neither repeats nor skips issues when a newer one arrives between pages", async () => {
    const first = await page({ sort: "date", limit: 10 });
    await seedIssues(store.db, projectId, [{ title: "Error newcomer", last_seen: NOW + H }]);
    try {
      const { ids: rest } = await allPages({ sort: "date", limit: 10, cursor: first.nextCursor });
      expect([...first.rows.map((r) => r.id), ...rest]).toEqual(expectedOrder("date"));
    } finally {
      await store.db.deleteFrom("issues").where("title", "=", "Error newcomer").execute();
    }
  });

  it("refuses a cursor from another sort, or one it did not make, with a message instead of a wrong page", async () => {
    const next = (await page({ sort: "freq", limit: 5 })).nextCursor!;
    await expect(page({ sort: "date", cursor: next })).rejects.toThrow(
      "This cursor is for sort=freq, not sort=date — drop the cursor parameter to start from the first page",
    );
    await expect(page({ cursor: "garbage!" })).rejects.toThrow("Invalid cursor — drop the cursor parameter to start from the first page");
    // A well-formed cursor past the end is simply an empty last page.
    expect(await page({ cursor: encodeIssueCursor({ sort: "date", value: 0, id: 0, back: false }) })).toEqual({
      rows: [],
      previousCursor: null,
      nextCursor: null,
    });
  });

  it.each(Object.keys(ISSUE_SORTS) as IssueSort[])(
    "walks back from the last page to the first with previous cursors on sort=%s",
    async (sort) => {
      const forward: number[][] = [];
      let p = await page({ sort, limit: 5 });
      expect(p.previousCursor).toBeNull();
      forward.push(p.rows.map((r) => r.id));
      while (p.nextCursor) {
        p = await page({ sort, limit: 5, cursor: p.nextCursor });
        expect(p.previousCursor).not.toBeNull();
        forward.push(p.rows.map((r) => r.id));
      }
      // The last page (3 rows) steps back to full pages of 5, the same ones read going forward.
      const backward: number[][] = [p.rows.map((r) => r.id)];
      while (p.previousCursor) {
        p = await page({ sort, limit: 5, cursor: p.previousCursor });
        expect(p.nextCursor).not.toBeNull();
        backward.unshift(p.rows.map((r) => r.id));
      }
      expect(backward).toEqual(forward);
      // And forward again from a page reached backwards.
      const again = await page({ sort, limit: 5, cursor: p.nextCursor });
      expect(again.rows.map((r) => r.id)).toEqual(forward[1]);
    },
  );
});
