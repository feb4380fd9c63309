import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { IssueStore, NewIssue } from "../../src/core/ports/issues";

/** An issue's text columns, which the issue step writes but does not read back. */
export interface IssueText {
  title: string;
  culprit: string;
  level: string;
  /** JSON text. */
  metadata: string;
}

export interface IssueTagCount {
  key: string;
  value: string;
  count: number;
  firstSeen: number;
  lastSeen: number;
}

export interface IssueStoreFixture {
  /** Runs `work` with a store bound to one unit of work (a transaction on the database) and commits it. */
  within<T>(work: (store: IssueStore) => Promise<T>): Promise<T>;
  /** Two projects. */
  projects: [number, number];
  /** Gives `projectId` an active frequency alert rule. */
  countEvents(projectId: number): Promise<void>;
  text(issueId: number): Promise<IssueText>;
  tags(issueId: number): Promise<IssueTagCount[]>;
  /** hour → count. */
  hours(issueId: number): Promise<Map<number, number>>;
  cleanup(): Promise<void>;
}

const FIELDS = { type: "error", title: "TypeError: x is undefined", culprit: "app.js", level: "error", metadata: {} } as const;

/** What the digest's issue step (src/core/ports/issues.ts) relies on: hash ownership, counts that add up, storable text. */
export function issueStoreContract(name: string, make: () => Promise<IssueStoreFixture>): void {
  describe(`${name}: issue store`, () => {
    let f: IssueStoreFixture;
    let project = 0;
    let other = 0;
    let hashes = 0;

    beforeAll(async () => {
      f = await make();
      [project, other] = f.projects;
    });
    afterAll(() => f.cleanup());

    const create = (over: Partial<NewIssue> = {}) =>
      f.within((s) =>
        s.createIssue({
          projectId: project,
          hashes: [`h${++hashes}`],
          config: "test",
          fields: FIELDS,
          seenAt: 1_000,
          release: "shop@1",
          environment: "production",
          ...over,
        }),
      );

    it("creates a new issue holding its hashes, found by them in its own project only", async () => {
      const id = await create({ hashes: ["c1", "c2", "c1"] });
      const state = await f.within(async (s) => {
        expect(await s.issuesByHash(project, ["c1", "c2", "unknown"])).toEqual(
          new Map([
            ["c1", id],
            ["c2", id],
          ]),
        );
        expect((await s.issuesByHash(other, ["c1"])).size).toBe(0);
        return (await s.readIssues([id, id + 1_000], false)).get(id);
      });
      expect(state).toMatchObject({
        status: "unresolved",
        substatus: "new",
        times_seen: 0,
        user_count: 0,
        first_seen: 1_000,
        last_seen: 1_000,
        last_release: "shop@1",
        last_environment: "production",
        resolved_at: null,
      });
      expect(await f.text(id)).toMatchObject({ title: FIELDS.title, culprit: "app.js", level: "error" });
    });

    it("answers the first issue when one of the hashes is claimed already, and never moves a claimed hash", async () => {
      const first = await create({ hashes: ["o1"] });
      expect(await create({ hashes: ["o2", "o1"] })).toBe(first);
      const second = await create({ hashes: ["o3"] });
      await f.within((s) =>
        s.addHashes([
          { projectId: project, hash: "o1", issueId: second, config: "test" },
          { projectId: project, hash: "o4", issueId: second, config: "test" },
        ]),
      );
      const owners = await f.within((s) => s.issuesByHash(project, ["o1", "o2", "o3", "o4"]));
      expect([...owners].sort()).toEqual([
        ["o1", first],
        ["o3", second],
        ["o4", second],
      ]);
    });

    it("counts each user once per issue and answers how many were new", async () => {
      const [a, b] = [await create(), await create()];
      const user = (issueId: number, userKey: string) => ({ issueId, userKey, firstSeen: 1_000 });
      expect(await f.within((s) => s.addUsers([user(a, "u1"), user(a, "u2"), user(b, "u1")]))).toEqual(
        new Map([
          [a, 2],
          [b, 1],
        ]),
      );
      expect(await f.within((s) => s.addUsers([user(a, "u1"), user(a, "u3"), user(b, "u1")]))).toEqual(new Map([[a, 1]]));
    });

    it("sets each issue's own columns, whatever the others of the batch set, leaves the rest, and makes text storable", async () => {
      const [counted, newest, resolved, untouched] = [await create(), await create(), await create(), await create()];
      await f.within((s) =>
        s.updateIssues([
          { id: counted, update: { times_seen: 5, user_count: 2, first_seen: 900, last_seen: 2_500 } },
          {
            id: newest,
            update: {
              times_seen: 1_795_475_602_382,
              user_count: 1,
              first_seen: 1_000,
              last_seen: 1_795_475_602_382,
              // NUL and a lone surrogate: neither is storable as is (jsonb and UTF-8 refuse them).
              title: "new\u0000 title \ud800",
              culprit: "naïve ☃ 😀",
              level: "warning",
              last_environment: null,
              metadata: '{"type":"TypeError"}',
            },
          },
          {
            id: resolved,
            update: {
              times_seen: 2,
              user_count: 1,
              first_seen: 1_000,
              last_seen: 3_000,
              status: "resolved",
              substatus: "resolved",
              resolved_at: 3_000,
            },
          },
        ]),
      );
      const read = await f.within((s) => s.readIssues([counted, newest, resolved, untouched], false));
      expect(read.get(counted)).toMatchObject({
        times_seen: 5,
        user_count: 2,
        first_seen: 900,
        last_seen: 2_500,
        last_environment: "production",
      });
      expect(read.get(newest)).toMatchObject({
        times_seen: 1_795_475_602_382,
        last_seen: 1_795_475_602_382,
        last_environment: null,
        status: "unresolved",
      });
      expect(await f.text(newest)).toEqual({
        title: "new title \ufffd",
        culprit: "naïve ☃ 😀",
        level: "warning",
        metadata: '{"type":"TypeError"}',
      });
      expect(await f.text(counted)).toMatchObject({ title: FIELDS.title, level: "error" });
      expect(read.get(resolved)).toMatchObject({ status: "resolved", substatus: "resolved", resolved_at: 3_000, last_seen: 3_000 });
      expect(read.get(untouched)).toMatchObject({ times_seen: 0, last_seen: 1_000, status: "unresolved", substatus: "new" });
    });

    it("adds tag and hourly counts, widens first and last seen, and stores tags without NUL or lone surrogates", async () => {
      const issueId = await create();
      const tag = (value: string, count: number, firstSeen: number, lastSeen: number) => ({
        issueId,
        key: "os",
        value,
        count,
        firstSeen,
        lastSeen,
      });
      await f.within(async (s) => {
        await s.addTags([tag("Linux", 2, 1_000, 2_000), { ...tag("Debian\u0000 12 \udc00", 1, 1_000, 1e20), key: "os\u0000" }]);
        await s.addHours([
          { issueId, hour: 0, count: 2 },
          { issueId, hour: 3_600_000, count: 1 },
        ]);
      });
      await f.within(async (s) => {
        await s.addTags([tag("Linux", 3, 500, 1_500)]);
        await s.addHours([{ issueId, hour: 0, count: 4 }]);
      });
      const tags = (await f.tags(issueId)).sort((a, b) => a.value.localeCompare(b.value));
      expect(tags).toEqual([
        { key: "os", value: "Debian 12 \ufffd", count: 1, firstSeen: 1_000, lastSeen: Number.MAX_SAFE_INTEGER },
        { key: "os", value: "Linux", count: 5, firstSeen: 500, lastSeen: 2_000 },
      ]);
      expect(await f.hours(issueId)).toEqual(
        new Map([
          [0, 6],
          [3_600_000, 1],
        ]),
      );
    });

    it("names the projects with an active frequency rule", async () => {
      await f.countEvents(other);
      expect([...(await f.within((s) => s.projectsCountingEvents([project, other])))]).toEqual([other]);
      expect((await f.within((s) => s.projectsCountingEvents([]))).size).toBe(0);
    });
  });
}
