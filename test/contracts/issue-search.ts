import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { IssueSearch } from "../../src/core/ports/issue-search";
import { parseIssueQuery } from "../../src/core/search/parse";
import { ISSUE_SORTS, decodeIssueCursor, encodeIssueCursor, type IssueSort } from "../../src/core/search/sort";

/** An issue as the suite seeds it: what the sorts and filters read, and its tags. */
export interface SearchSeed {
  title: string;
  status: "unresolved" | "resolved";
  last_seen: number;
  first_seen: number;
  times_seen: number;
  user_count: number;
  /** Merged into this issue: never listed. */
  mergedInto?: number;
  tags?: Array<[string, string]>;
}

export interface IssueSearchFixture {
  search: IssueSearch;
  /** Two projects. */
  projects: [number, number];
  /** Stores issues in a project; answers their ids in order. */
  seed(projectId: number, seeds: SearchSeed[]): Promise<number[]>;
  remove(ids: readonly number[]): Promise<void>;
  cleanup(): Promise<void>;
}

const NOW = 1_700_000_000_000;
const H = 3_600_000;

interface PageRequest {
  query?: string;
  sort?: IssueSort;
  cursor?: string | null;
  limit?: number;
  since?: number;
}

/**
 * What the issue stream relies on from an issue search (src/core/ports/issue-search.ts): keyset
 * pages that never skip or repeat an issue, in every sort and both directions, merged issues
 * left out, and the environments and tag keys seen. What each search term matches is the
 * query compiler's own suite (src/db/issue-search.test.ts).
 */
export function issueSearchContract(name: string, make: () => Promise<IssueSearchFixture>): void {
  describe(`${name}: issue search`, () => {
    let f: IssueSearchFixture;
    let projectId = 0;
    let seeds: Array<SearchSeed & { id: number }>;

    beforeAll(async () => {
      f = await make();
      projectId = f.projects[0];
      // Few distinct values per column, so that most page boundaries fall inside a run of ties.
      const made: SearchSeed[] = Array.from({ length: 23 }, (_, i) => ({
        title: `Error ${i}`,
        status: i % 3 === 0 ? "resolved" : "unresolved",
        last_seen: NOW - (i % 4) * H,
        first_seen: NOW - (i % 6) * 24 * H,
        times_seen: (i * 7) % 3,
        user_count: i % 5,
        tags: i < 2 ? [["environment", i === 0 ? "production" : "staging"]] : [],
      }));
      const ids = await f.seed(projectId, made);
      seeds = made.map((s, i) => ({ ...s, id: ids[i] ?? 0 }));
      const [first] = ids;
      const [firstSeed] = made;
      if (first === undefined || firstSeed === undefined) throw new Error("nothing seeded");
      // Matches every query below but is never listed.
      await f.seed(projectId, [{ ...firstSeed, title: "Error merged", last_seen: NOW + 2 * H, mergedInto: first }]);
    });
    afterAll(() => f.cleanup());

    /** What a caller (the issue stream, the web API) does: parse the query, decode the cursor, ask for the page. */
    async function page(req: PageRequest) {
      const sort = req.sort ?? "date";
      const parsed = parseIssueQuery(req.query ?? "");
      if (!parsed.ok) throw new Error(parsed.error.message);
      const cursor = req.cursor ? decodeIssueCursor(req.cursor, sort) : null;
      if (cursor && !cursor.ok) throw new Error(cursor.message);
      return f.search.page({
        projectIds: [projectId],
        query: parsed.query,
        userId: null,
        now: NOW,
        since: req.since,
        sort,
        cursor: cursor?.cursor ?? null,
        limit: req.limit ?? 25,
      });
    }

    function expectedOrder(sort: IssueSort, keep: (r: SearchSeed) => boolean = () => true): number[] {
      const column = ISSUE_SORTS[sort];
      return seeds
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

    it.each(Object.keys(ISSUE_SORTS) as IssueSort[])(
      "pages through sort=%s without duplicates or gaps, ties broken by id",
      async (sort) => {
        for (const limit of [1, 5, 7, 23, 100]) {
          const { ids, pages } = await allPages({ sort, limit });
          expect(ids).toEqual(expectedOrder(sort));
          expect(new Set(ids).size).toBe(ids.length);
          expect(pages).toBe(Math.max(1, Math.ceil(23 / limit)));
        }
      },
    );

    it("pages through a filtered search, and only issues seen since a time", async () => {
      const { ids } = await allPages({ query: "is:unresolved", sort: "freq", limit: 4 });
      expect(ids).toEqual(expectedOrder("freq", (r) => r.status === "unresolved"));
      expect((await allPages({ since: NOW - H, limit: 4 })).ids).toEqual(expectedOrder("date", (r) => r.last_seen >= NOW - H));
    });

    it("gives no next cursor when the last page is exactly full", async () => {
      const p = await page({ limit: 23 });
      expect(p.rows).toHaveLength(23);
      expect(p.nextCursor).toBeNull();
      expect((await page({ limit: 22 })).nextCursor).not.toBeNull();
    });

    it("neither repeats nor skips issues when a newer one arrives between pages", async () => {
      const first = await page({ sort: "date", limit: 10 });
      const newcomer = await f.seed(projectId, [
        { title: "Error newcomer", status: "unresolved", last_seen: NOW + H, first_seen: NOW, times_seen: 1, user_count: 0 },
      ]);
      try {
        const { ids: rest } = await allPages({ sort: "date", limit: 10, cursor: first.nextCursor });
        expect([...first.rows.map((r) => r.id), ...rest]).toEqual(expectedOrder("date"));
      } finally {
        await f.remove(newcomer);
      }
    });

    it("refuses a cursor from another sort, or one it did not make, with a message instead of a wrong page", async () => {
      const next = (await page({ sort: "freq", limit: 5 })).nextCursor;
      if (next === null) throw new Error("one page only");
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

    it("lists the environments the projects' issues were seen in, once each, in order, not other projects'", async () => {
      const other = f.projects[1];
      const env = (value: string): [string, string] => ["environment", value];
      const base = { status: "unresolved", last_seen: NOW - H, first_seen: NOW - H, times_seen: 1, user_count: 0 } as const;
      await f.seed(other, [{ ...base, title: "Elsewhere", tags: [env("canary"), env("production"), env("qa"), ["path", "/"]] }]);
      expect(await f.search.environments([projectId], 50)).toEqual(["production", "staging"]);
      expect(await f.search.environments([other], 50)).toEqual(["canary", "production", "qa"]);
      expect(await f.search.environments([projectId, other], 50)).toEqual(["canary", "production", "qa", "staging"]);
      expect(await f.search.environments([projectId, other], 2)).toEqual(["canary", "production"]);
      expect(await f.search.environments([], 50)).toEqual([]);
      expect(await f.search.tagKeysSeen([projectId], ["path", "environment", "nope"])).toEqual(["environment"]);
      expect(await f.search.tagKeysSeen([projectId, other], ["path"])).toEqual(["path"]);
      expect(await f.search.tagKeysSeen([], ["path"])).toEqual([]);
    });
  });
}
