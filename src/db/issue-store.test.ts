import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createOrganization } from "../core/orgs/create-org";
import { createProject } from "../core/projects/create-project";
import { DIALECTS, openTestStore, testCtx, type TestStore } from "../../test/support/stores";
import { KyselyIssueStore } from "./issue-store";

describe.each(DIALECTS)("the issue store's updates on %s", (dialect) => {
  let store: TestStore;
  let projectId: number;

  beforeAll(async () => {
    store = await openTestStore(dialect);
    const ctx = testCtx(store);
    await createOrganization({ ctx, input: { slug: "u" } });
    projectId = (await createProject({ ctx, input: { org: "u", slug: "p" } })).project.id;
  });
  afterAll(() => store.cleanup());

  const newIssue = async (n: number) =>
    (
      await store.db
        .insertInto("issues")
        .values({
          project_id: projectId,
          short_number: n,
          type: "error",
          title: `title ${n}`,
          culprit: "app.js",
          level: "error",
          metadata: "{}",
          status: "unresolved",
          substatus: "ongoing",
          first_seen: 1_000,
          last_seen: 2_000,
          times_seen: 1,
          user_count: 1,
          last_environment: "production",
          resolved_next_release: 0,
          grouping_config: "test",
        })
        .returning("id")
        .executeTakeFirstOrThrow()
    ).id;

  it("stores tag values carrying NUL and lone surrogates, without them", async () => {
    const issueId = await newIssue(10);
    await store.db.transaction().execute(async (trx) => {
      await new KyselyIssueStore(trx, dialect === "postgres").addTags([
        { issueId, key: "os\u0000", value: "Debian\u0000 12 \udc00", count: 1, firstSeen: 1_000, lastSeen: 1e20 },
      ]);
    });
    const rows = await store.db.selectFrom("issue_tags").select(["key", "value", "last_seen"]).where("issue_id", "=", issueId).execute();
    expect(rows.map((r) => ({ ...r, last_seen: Number(r.last_seen) }))).toEqual([
      { key: "os", value: "Debian 12 \ufffd", last_seen: Number.MAX_SAFE_INTEGER },
    ]);
  });

  it("sets each issue's own columns, whatever columns the other issues of the batch set, and leaves the rest", async () => {
    const [counted, newest, resolved, untouched] = [await newIssue(1), await newIssue(2), await newIssue(3), await newIssue(4)];
    await store.db.transaction().execute(async (trx) => {
      await new KyselyIssueStore(trx, dialect === "postgres").updateIssues([
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
      ]);
    });
    const rows = await store.db
      .selectFrom("issues")
      .select([
        "id",
        "title",
        "culprit",
        "level",
        "status",
        "substatus",
        "times_seen",
        "user_count",
        "first_seen",
        "last_seen",
        "last_environment",
        "metadata",
        "resolved_at",
      ])
      .where("id", "in", [counted, newest, resolved, untouched])
      .orderBy("id")
      .execute();
    const byId = new Map(
      rows.map((r) => [r.id, { ...r, times_seen: Number(r.times_seen), first_seen: Number(r.first_seen), last_seen: Number(r.last_seen) }]),
    );
    expect(byId.get(counted)).toMatchObject({
      title: "title 1",
      level: "error",
      times_seen: 5,
      user_count: 2,
      first_seen: 900,
      last_seen: 2_500,
      last_environment: "production",
    });
    expect(byId.get(newest)).toMatchObject({
      title: "new title \ufffd",
      culprit: "naïve ☃ 😀",
      level: "warning",
      times_seen: 1_795_475_602_382,
      last_seen: 1_795_475_602_382,
      last_environment: null,
      metadata: '{"type":"TypeError"}',
      status: "unresolved",
    });
    expect(byId.get(resolved)).toMatchObject({
      title: "title 3",
      status: "resolved",
      substatus: "resolved",
      resolved_at: 3_000,
      last_seen: 3_000,
    });
    expect(byId.get(untouched)).toMatchObject({ title: "title 4", times_seen: 1, last_seen: 2_000, status: "unresolved" });
  });
});
