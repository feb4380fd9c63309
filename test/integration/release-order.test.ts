import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { buildDsn } from "../../src/core/auth/dsn";
import type { Ctx } from "../../src/core/context";
import { digestBatch } from "../../src/core/digest/batch";
import { DEFAULT_ENVELOPE_LIMITS } from "../../src/core/envelope/index";
import { changeIssues, type IssueChange } from "../../src/core/issues/triage";
import { createProject } from "../../src/core/projects/create-project";
import type { User } from "../../src/db/schema";
import { runSentryCli, sentryCli } from "../support/clients";
import { openCliProject, type CliProject } from "../support/cli-project";
import { startFront, type TestFront } from "../support/front";
import { DIALECTS } from "../support/stores";

/**
 * Issue 13, item 3: "resolve in (the next) release" and regressions follow release order —
 * versions where both parse, otherwise when each release was first seen in the organization.
 * Events come from the real sentry-cli (`send-event -r`), releases from its `releases new`.
 */
describe.each(DIALECTS)("release order for resolutions and regressions on %s", (dialect) => {
  let bench: CliProject;
  let ctx: Ctx;
  let front: TestFront;
  let user: User;
  let projectId = 0;
  let dsn = "";

  beforeAll(async () => {
    bench = await openCliProject(dialect);
    ctx = bench.ctx;
    front = await startFront(ctx);
    const { project, key } = await createProject({ ctx, input: { org: "acme", slug: "api", platform: "node" } });
    projectId = project.id;
    dsn = buildDsn(front.base, key.public_key, project.id);
    user = await bench.store.db.selectFrom("users").selectAll().where("email", "=", "owner@example.com").executeTakeFirstOrThrow();
  });
  afterAll(async () => {
    await front?.close();
    await bench?.close();
  });

  /** Sends one event with sentry-cli and digests it; answers its issue. */
  async function send(message: string, release: string): Promise<number> {
    await runSentryCli(dsn, ["-m", message, "-r", release, "--no-environ"]);
    while ((await digestBatch(ctx, { batchSize: 50, limits: DEFAULT_ENVELOPE_LIMITS })) > 0);
    const event = await bench.store.db
      .selectFrom("events")
      .select("issue_id")
      .where("project_id", "=", projectId)
      .where("release", "=", release)
      .orderBy("id", "desc")
      .executeTakeFirstOrThrow();
    return event.issue_id!;
  }
  const issue = (id: number) => bench.store.db.selectFrom("issues").selectAll().where("id", "=", id).executeTakeFirstOrThrow();
  const change = (id: number, c: IssueChange) => changeIssues({ ctx, input: { projectIds: [projectId], issueIds: [id], user, change: c } });

  it("resolved in the next release with commit hashes: older and the same release stay resolved, a later one regresses", async () => {
    // First seen in this order; neither alphabetical nor numeric order agrees with it.
    const [first, second, third] = ["f3a9c1e", "9b8d7c2", "0c4e6a5"];
    const id = await send("checkout failed", first!);
    expect(await send("checkout failed", second!)).toBe(id);
    await change(id, { action: "resolveInNextRelease" });
    expect(await issue(id)).toMatchObject({ status: "resolved", resolved_in_release: second, resolved_next_release: 1 });

    await send("checkout failed", first!);
    await send("checkout failed", second!);
    expect((await issue(id)).status).toBe("resolved");

    await send("checkout failed", third!);
    expect(await issue(id)).toMatchObject({ status: "unresolved", substatus: "regressed", times_seen: 5 });
  });

  it("a release sentry-cli creates after the release held back is newer; one created before it is older", async () => {
    const id = await send("payment declined", "1d2e3f4");
    const made = await sentryCli(bench.api.base, bench.token, ["releases", "new", "5a6b7c8", "--org", "acme", "--project", "api"]);
    expect(made.code, made.out).toBe(0);
    await change(id, { action: "resolveInNextRelease" });
    // Created after 1d2e3f4 was first seen, so it is the next release, though no event named it before.
    await send("payment declined", "5a6b7c8");
    expect((await issue(id)).substatus).toBe("regressed");

    const other = await send("refund failed", "7e8f9a0");
    await change(other, { action: "resolveInNextRelease" });
    // 5a6b7c8 was first seen before 7e8f9a0: older, held back.
    await send("refund failed", "5a6b7c8");
    expect((await issue(other)).status).toBe("resolved");
  });

  it("resolved in release 2.0.0: 1.9.0 and 2.0.0-rc.10 stay resolved, 2.0.1 regresses", async () => {
    const id = await send("stock out of range", "1.9.0");
    await change(id, { action: "resolveInRelease", release: "2.0.0" });
    await send("stock out of range", "1.9.0");
    await send("stock out of range", "2.0.0-rc.10");
    expect((await issue(id)).status).toBe("resolved");
    await send("stock out of range", "2.0.1");
    expect(await issue(id)).toMatchObject({ status: "unresolved", substatus: "regressed" });
  });

  it("resolved in release 3.0.0-rc.2: rc.1 stays resolved, rc.10 regresses (prerelease numbers compare as numbers)", async () => {
    const id = await send("tax rate missing", "3.0.0-rc.1");
    await change(id, { action: "resolveInRelease", release: "3.0.0-rc.2" });
    await send("tax rate missing", "3.0.0-rc.1");
    expect((await issue(id)).status).toBe("resolved");
    await send("tax rate missing", "3.0.0-rc.10");
    expect((await issue(id)).substatus).toBe("regressed");
  });

  it("resolved in the next release after a late event from an old version: holds back the greatest version released", async () => {
    const id = await send("cart expired", "shop@2.1.0");
    await send("cart expired", "shop@1.0.0");
    expect((await issue(id)).last_release).toBe("shop@1.0.0");
    await change(id, { action: "resolveInNextRelease" });
    expect((await issue(id)).resolved_in_release).toBe("shop@2.1.0");
    await send("cart expired", "shop@2.1.0");
    expect((await issue(id)).status).toBe("resolved");
    await send("cart expired", "shop@2.2.0-rc.2");
    expect((await issue(id)).substatus).toBe("regressed");
  });
});
