import { execFileSync } from "node:child_process";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createUser } from "../../src/core/accounts/create-user";
import type { Ctx } from "../../src/core/context";
import { createOrganization } from "../../src/core/orgs/create-org";
import { createProject } from "../../src/core/projects/create-project";
import { createToken } from "../../src/core/tokens/tokens";
import { setLogLevel } from "../../src/server/log";
import { startApiServer } from "../support/api-server";
import { sentryCli } from "../support/clients";
import { DIALECTS, openTestStore, testCtx, type TestStore } from "../support/stores";

/** A temporary git repository whose origin is github.com/acme/web, as `set-commits --local` reads it. */
function gitRepo(): { dir: string; commit(message: string): string } {
  const dir = mkdtempSync(join(tmpdir(), "telltale-git-"));
  const git = (...args: string[]) => execFileSync("git", args, { cwd: dir, encoding: "utf8" }).trim();
  git("init", "-q", "-b", "main");
  git("config", "user.email", "dev@example.com");
  git("config", "user.name", "Dev Eloper");
  git("remote", "add", "origin", "https://github.com/acme/web.git");
  let n = 0;
  return {
    dir,
    commit(message: string) {
      writeFileSync(join(dir, `file${n++}.txt`), message);
      git("add", ".");
      git("commit", "-q", "-m", message);
      return git("rev-parse", "HEAD");
    },
  };
}

/**
 * Issue 13, item 1: releases, deploys and commits as the real sentry-cli 3.8 manages them —
 * `releases new / finalize / list / info / delete`, `deploys new / list`, `set-commits` with a
 * repository registered by API and with `--local` from a git tree. Both databases.
 */
describe.each(DIALECTS)("sentry-cli releases on %s", (dialect) => {
  let store: TestStore;
  let ctx: Ctx;
  let api: { base: string; close(): Promise<void> };
  let token = "";
  let orgId = 0;
  let repo: ReturnType<typeof gitRepo>;

  beforeAll(async () => {
    setLogLevel("warn");
    store = await openTestStore(dialect);
    ctx = testCtx(store);
    await createUser({ ctx, input: { email: "owner@example.com", password: "password-123" } });
    orgId = (await createOrganization({ ctx, input: { slug: "acme", owner: "owner@example.com" } })).id;
    await createProject({ ctx, input: { org: "acme", slug: "web", platform: "javascript" } });
    await createProject({ ctx, input: { org: "acme", slug: "api", platform: "node" } });
    api = await startApiServer(ctx);
    ctx.publicUrl = api.base;
    token = (await createToken({ ctx, input: { user: "owner@example.com", name: "ci" } })).token;
    repo = gitRepo();
  });

  afterAll(async () => {
    await api.close();
    await store.cleanup();
    rmSync(repo.dir, { recursive: true, force: true });
  });

  const cli = async (args: string[], options: { cwd?: string; token?: string } = {}) => {
    const r = await sentryCli(api.base, options.token ?? token, args, options.cwd ? { cwd: options.cwd } : {});
    return r;
  };
  const ok = async (args: string[], options: { cwd?: string } = {}) => {
    const r = await cli(args, options);
    expect(r.code, `${args.join(" ")}\n${r.out}`).toBe(0);
    return r.out;
  };
  const apiGet = async (path: string) => {
    const res = await fetch(`${api.base}/api/0/${path}`, { headers: { authorization: `Bearer ${token}` } });
    return { status: res.status, body: (await res.json()) as unknown };
  };

  it("creates a release for a project, finalizes it, lists it (for the organization and the project) and shows it", async () => {
    await ok(["releases", "new", "1.0.0", "--org", "acme", "--project", "web"]);
    const created = await ctx.releases.release(orgId, "1.0.0");
    expect(created).toMatchObject({ version: "1.0.0", dateReleased: null, projects: [expect.objectContaining({ slug: "web" })] });

    await ok(["releases", "finalize", "1.0.0", "--org", "acme"]);
    expect((await ctx.releases.release(orgId, "1.0.0"))?.dateReleased).toEqual(expect.any(Number));

    expect(await ok(["releases", "list", "--org", "acme"])).toContain("1.0.0");
    expect(await ok(["releases", "list", "--org", "acme", "--project", "web"])).toContain("1.0.0");
    expect(await ok(["releases", "list", "--org", "acme", "--project", "api"])).not.toContain("1.0.0");
    expect(await ok(["releases", "info", "1.0.0", "--org", "acme"])).toContain("1.0.0");
    expect((await cli(["releases", "info", "9.9.9", "--org", "acme"])).code).not.toBe(0);

    const shown = await apiGet("organizations/acme/releases/1.0.0/");
    expect(shown).toMatchObject({
      status: 200,
      body: {
        version: "1.0.0",
        dateCreated: expect.any(String),
        dateReleased: expect.any(String),
        projects: [{ slug: "web", name: "web" }],
      },
    });
  });

  it("records deploys and lists them", async () => {
    await ok([
      "deploys",
      "new",
      "--org",
      "acme",
      "--release",
      "1.0.0",
      "--env",
      "production",
      "--name",
      "first",
      "--url",
      "https://example.com",
    ]);
    await ok(["deploys", "new", "--org", "acme", "--release", "1.0.0", "--env", "staging"]);
    const listed = await ok(["deploys", "list", "--org", "acme", "--release", "1.0.0"]);
    expect(listed).toContain("production");
    expect(listed).toContain("staging");
    const release = (await ctx.releases.release(orgId, "1.0.0"))!;
    expect((await ctx.releases.deploys(release.id)).map((d) => [d.environment, d.name])).toEqual([
      ["staging", null],
      ["production", "first"],
    ]);
    expect((await apiGet("organizations/acme/releases/1.0.0/")).body).toMatchObject({
      deployCount: 2,
      lastDeploy: { environment: "staging" },
    });
    expect((await cli(["deploys", "new", "--org", "acme", "--release", "nope", "--env", "production"])).code).not.toBe(0);
  });

  it("sets commits by a repository registered through the API (--commit repo@from..to)", async () => {
    const register = (body: unknown) =>
      fetch(`${api.base}/api/0/organizations/acme/repos/`, {
        method: "POST",
        headers: { authorization: `Bearer ${token}`, "content-type": "application/json" },
        body: JSON.stringify(body),
      });
    const made = await register({ name: "acme/web", url: "https://github.com/acme/web" });
    expect(made.status).toBe(201);
    expect(await made.json()).toMatchObject({
      name: "acme/web",
      url: "https://github.com/acme/web",
      provider: { id: "custom" },
      status: "active",
    });
    expect((await register({ name: "acme/web" })).status).toBe(409);
    expect((await register({})).status).toBe(400);
    expect((await apiGet("organizations/acme/repos/")).body).toEqual([expect.objectContaining({ name: "acme/web" })]);

    const from = "a".repeat(40);
    const to = "b".repeat(40);
    await ok(["releases", "set-commits", "1.0.0", "--org", "acme", "--commit", `acme/web@${from}..${to}`]);
    expect((await apiGet("organizations/acme/releases/1.0.0/commits/")).body).toEqual([
      expect.objectContaining({ id: to, repository: expect.objectContaining({ name: "acme/web" }) as unknown }),
    ]);
    expect((await apiGet("organizations/acme/releases/1.0.0/")).body).toMatchObject({ commitCount: 1, lastCommit: { id: to } });
    const unknown = await cli(["releases", "set-commits", "1.0.0", "--org", "acme", "--commit", "other/repo@abc"]);
    expect(unknown.code).not.toBe(0);
    expect(unknown.out).toContain("Unknown repo");
  });

  it("sets commits from the local git tree (--local), from the previous release's last commit on", async () => {
    const first = repo.commit("first change");
    const second = repo.commit("second change");
    await ok(["releases", "new", "2.0.0", "--org", "acme", "--project", "web"]);
    // 1.0.0's last commit is not in this tree: --ignore-missing takes the default depth instead.
    await ok(["releases", "set-commits", "2.0.0", "--org", "acme", "--local", "--ignore-missing"], { cwd: repo.dir });
    const two = (await ctx.releases.release(orgId, "2.0.0"))!;
    // sentry-cli 3.8 names the repository after the remote's name, not its URL (set_commits.rs in
    // https://github.com/getsentry/sentry-cli/blob/fb79c59a35d79135d9eb84f4845572ce4548c455/src/commands/releases/
    // passes `get_cached_vcs_remote()`, "origin", to `get_repo_from_remote`): the repository is registered as it is sent.
    expect((await ctx.releases.commits(two.id)).map((c) => [c.key, c.message?.trim(), c.repositoryName, c.authorEmail])).toEqual([
      [second, "second change", "origin", "dev@example.com"],
      [first, "first change", "origin", "dev@example.com"],
    ]);

    const third = repo.commit("third change");
    await ok(["releases", "new", "3.0.0", "--org", "acme", "--project", "web"]);
    expect((await apiGet("organizations/acme/releases/3.0.0/previous-with-commits/")).body).toMatchObject({
      version: "2.0.0",
      lastCommit: { id: second },
    });
    await ok(["releases", "set-commits", "3.0.0", "--org", "acme", "--local"], { cwd: repo.dir });
    const three = (await ctx.releases.release(orgId, "3.0.0"))!;
    expect((await ctx.releases.commits(three.id)).map((c) => c.key)).toEqual([third]);
    expect((await apiGet("organizations/acme/releases/1.0.0/previous-with-commits/")).body).toEqual({});
  });

  it("deletes a release", async () => {
    await ok(["releases", "delete", "3.0.0", "--org", "acme"]);
    expect(await ctx.releases.release(orgId, "3.0.0")).toBeNull();
    expect((await apiGet("organizations/acme/releases/3.0.0/")).status).toBe(404);
    expect(await ok(["releases", "delete", "3.0.0", "--org", "acme"])).toContain("does not exist");
  });

  it("refuses a project:read token (403) and bad bodies (400) without changing anything", async () => {
    const reader = (await createToken({ ctx, input: { user: "owner@example.com", name: "reader", scopes: ["project:read", "org:read"] } }))
      .token;
    const refused = await cli(["releases", "new", "4.0.0", "--org", "acme", "--project", "web"], { token: reader });
    expect(refused.code).not.toBe(0);
    expect(await ctx.releases.release(orgId, "4.0.0")).toBeNull();
    const post = (body: unknown) =>
      fetch(`${api.base}/api/0/organizations/acme/releases/`, {
        method: "POST",
        headers: { authorization: `Bearer ${token}`, "content-type": "application/json" },
        body: JSON.stringify(body),
      }).then((r) => r.status);
    expect(await post({ version: "a/b", projects: ["web"] })).toBe(400);
    expect(await post({ version: "x".repeat(251), projects: ["web"] })).toBe(400);
    expect(await post({ version: "5.0.0", projects: [] })).toBe(400);
    expect(await post({ version: "5.0.0", projects: ["ghost"] })).toBe(400);
    expect(await post({ version: "5.0.0", projects: ["web"], dateReleased: "yesterday" })).toBe(400);
    expect(await post(["not", "an", "object"])).toBe(400);
    expect(await ctx.releases.release(orgId, "5.0.0")).toBeNull();
    expect(await post({ version: "5.0.0", projects: ["web"] })).toBe(201);
    expect(await post({ version: "5.0.0", projects: ["api"] })).toBe(208);
    expect((await ctx.releases.release(orgId, "5.0.0"))?.projects.map((p) => p.slug)).toEqual(["api", "web"]);
  });
});
