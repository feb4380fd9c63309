import { spawn } from "node:child_process";
import { createServer } from "node:net";
import type { AddressInfo } from "node:net";
import { randomBytes } from "node:crypto";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import pg from "pg";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { login, passwordSignIn } from "../../src/core/accounts/login";
import { userForSession } from "../../src/core/accounts/sessions";
import { confirmEnrolment, offerEnrolment } from "../../src/core/twofactor/enrol";
import { totpCodeAt } from "../../src/core/twofactor/totp";
import { parseDsn } from "../../src/core/auth/dsn";
import { PLATFORM_IDS } from "../../src/core/projects/platforms";
import { userForToken } from "../../src/core/tokens/tokens";
import { DIALECTS, openTestStore, PG_URL, testCtx, type TestStore } from "../support/stores";

const ROOT = join(import.meta.dirname, "..", "..");
const PUBLIC_URL = "http://telltale.test:8000";

interface Run {
  code: number | null;
  stdout: string;
  stderr: string;
}

/**
 * Runs `telltale …` as a user would, with only the given settings in its environment.
 * `dist/cli.js` is the command without its build step (`telltale serve` would build the app first).
 */
function telltale(args: string[], env: Record<string, string>, entry = "bin/telltale.mjs"): Promise<Run> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [join(ROOT, entry), ...args], {
      cwd: ROOT,
      env: { PATH: process.env.PATH ?? "", NODE_ENV: "test", TELLTALE_URL: PUBLIC_URL, TELLTALE_LOG_LEVEL: "warn", ...env },
      stdio: ["ignore", "pipe", "pipe"],
    });
    let stdout = "";
    let stderr = "";
    child.stdout.on("data", (d: Buffer) => (stdout += d.toString()));
    child.stderr.on("data", (d: Buffer) => (stderr += d.toString()));
    child.on("error", reject);
    child.on("close", (code) => resolve({ code, stdout, stderr }));
  });
}

function json(run: Run): Record<string, unknown> {
  expect(run.stderr).toBe("");
  expect(run.code).toBe(0);
  return JSON.parse(run.stdout) as Record<string, unknown>;
}

// The first run builds the server bundle when sources changed; do it once, not in parallel runs.
beforeAll(async () => {
  const run = await telltale(["--help"], {});
  expect(run.code, run.stderr).toBe(0);
}, 120_000);

// Every test uses its own names, so they run side by side: each is a process start or two.
describe.concurrent.each(DIALECTS)("the telltale command on %s", (dialect) => {
  let store: TestStore;
  const cli = (...args: string[]) => telltale(args, store.env);

  beforeAll(async () => {
    store = await openTestStore(dialect);
  });
  afterAll(() => store.cleanup());

  it("creates a user", async () => {
    const run = await cli("user", "create", "--email", "Ada@Example.com", "--password", "analytical engine", "--name", "Ada");
    expect(run).toEqual({ code: 0, stdout: "created user ada@example.com\n", stderr: "" });
    expect(
      await store.db
        .selectFrom("users")
        .select(["email", "name", "is_superuser"])
        .where("email", "=", "ada@example.com")
        .executeTakeFirst(),
    ).toEqual({
      email: "ada@example.com",
      name: "Ada",
      is_superuser: 0,
    });
  });

  it("creates a superuser and prints JSON with --json", async () => {
    const out = json(await cli("user", "create", "--email=root@example.com", "--password=root password", "--superuser", "--json"));
    expect(out).toEqual({ id: expect.stringMatching(/^\d+$/), email: "root@example.com", isSuperuser: true });
  });

  it("sets a user's password with user set-password and signs them out everywhere", async () => {
    await cli("user", "create", "--email", "forgetful@example.com", "--password", "the old password");
    const ctx = testCtx(store);
    const input = { email: "forgetful@example.com", ip: "10.9.9.9", userAgent: "vitest" };
    const session = await login({ ctx, input: { ...input, password: "the old password" } });
    const run = await cli("user", "set-password", "--email", "Forgetful@example.com", "--password", "the new password");
    expect(run).toEqual({
      code: 0,
      stdout: "set a new password for forgetful@example.com; every session of theirs was signed out\n",
      stderr: "",
    });
    expect(await userForSession(ctx, session.token)).toBeNull();
    await expect(login({ ctx, input: { ...input, password: "the old password" } })).rejects.toMatchObject({ code: "unauthenticated" });
    await expect(login({ ctx, input: { ...input, password: "the new password" } })).resolves.toMatchObject({
      user: { email: input.email },
    });
  });

  it("refuses set-password for an unknown user and a short password", async () => {
    const unknown = await cli("user", "set-password", "--email", "nobody@example.com", "--password", "long enough");
    expect(unknown.code).toBe(1);
    expect(unknown.stderr).toMatch(/no user with email 'nobody@example.com'/);
    await cli("user", "create", "--email", "short@example.com", "--password", "long enough");
    const short = await cli("user", "set-password", "--email", "short@example.com", "--password", "short");
    expect(short.code).not.toBe(0);
    expect(short.stderr).toMatch(/at least 8 characters/);
  });

  it("turns off a locked-out user's two-factor sign-in with user reset-2fa, signs them out and audits it", async () => {
    await cli("user", "create", "--email", "lost-phone@example.com", "--password", "a good password");
    await cli("org", "create", "--slug", "lostphone", "--owner", "lost-phone@example.com");
    const ctx = testCtx(store);
    const user = (await ctx.accounts.userByEmail("lost-phone@example.com"))!;
    const { secret } = offerEnrolment(ctx, user);
    await confirmEnrolment({ ctx, user, input: { secret, code: await totpCodeAt(secret, ctx.now()), ip: "10.9.9.8" } });
    const input = { email: user.email, password: "a good password", ip: "10.9.9.8", userAgent: "vitest" };
    expect(await passwordSignIn({ ctx, input })).toMatchObject({ kind: "second-factor" });

    const run = await cli("user", "reset-2fa", "--email", "Lost-Phone@example.com", "--json");
    expect(json(run)).toEqual({ id: String(user.id), email: user.email });
    expect(await passwordSignIn({ ctx, input })).toMatchObject({ kind: "session" });
    const audited = await store.db
      .selectFrom("audit_log")
      .innerJoin("organizations", "organizations.id", "audit_log.organization_id")
      .select(["audit_log.event", "audit_log.actor_user_id", "audit_log.actor_label", "audit_log.target_label"])
      .where("organizations.slug", "=", "lostphone")
      .where("audit_log.event", "=", "user.disable-2fa")
      .execute();
    expect(audited).toEqual([
      { event: "user.disable-2fa", actor_user_id: null, actor_label: "the telltale command", target_label: user.email },
    ]);

    const again = await cli("user", "reset-2fa", "--email", user.email);
    expect(again.code).toBe(1);
    expect(again.stderr).toMatch(/lost-phone@example.com has no two-factor sign-in to reset/);
    const unknown = await cli("user", "reset-2fa", "--email", "nobody-2fa@example.com");
    expect(unknown.code).toBe(1);
    expect(unknown.stderr).toMatch(/no user with email 'nobody-2fa@example.com'/);
  });

  it("signs out every session of a user whose two-factor sign-in is reset", async () => {
    await cli("user", "create", "--email", "second-phone@example.com", "--password", "a good password");
    const ctx = testCtx(store);
    const user = (await ctx.accounts.userByEmail("second-phone@example.com"))!;
    const session = await login({ ctx, input: { email: user.email, password: "a good password", ip: "10.9.9.7", userAgent: "vitest" } });
    const { secret } = offerEnrolment(ctx, user);
    await confirmEnrolment({ ctx, user, input: { secret, code: await totpCodeAt(secret, ctx.now()), ip: "10.9.9.7" } });
    expect(await userForSession(ctx, session.token)).not.toBeNull();
    expect((await cli("user", "reset-2fa", "--email", user.email)).code).toBe(0);
    expect(await userForSession(ctx, session.token)).toBeNull();
  });

  it("creates an organization owned by a user", async () => {
    await cli("user", "create", "--email", "owner@example.com", "--password", "owner password");
    const out = json(await cli("org", "create", "--slug", "acme", "--name", "Acme Inc.", "--owner", "owner@example.com", "--json"));
    expect(out).toEqual({ id: expect.stringMatching(/^\d+$/), slug: "acme", name: "Acme Inc." });
    const membership = await store.db
      .selectFrom("memberships")
      .innerJoin("users", "users.id", "memberships.user_id")
      .select(["users.email", "memberships.role"])
      .where("memberships.organization_id", "=", Number(out.id))
      .execute();
    expect(membership).toEqual([{ email: "owner@example.com", role: "owner" }]);
  });

  it("creates a project and prints its DSN, built on TELLTALE_URL, for a key that exists", async () => {
    await cli("org", "create", "--slug", "shop");
    const plain = await cli("project", "create", "--org", "shop", "--slug", "storefront");
    expect(plain.code).toBe(0);
    expect(plain.stdout).toMatch(/^http:\/\/[0-9a-f]{32}@telltale\.test:8000\/\d+\n$/);

    const out = json(await cli("project", "create", "--org", "shop", "--slug", "backend", "--platform", "node", "--json"));
    expect(out).toEqual({ id: expect.stringMatching(/^\d+$/), slug: "backend", dsn: expect.any(String) });
    const dsn = parseDsn(String(out.dsn));
    expect(dsn).toMatchObject({ protocol: "http", host: "telltale.test:8000", path: "", projectId: out.id });
    const key = await store.db
      .selectFrom("project_keys")
      .select(["project_id", "is_active"])
      .where("public_key", "=", dsn!.publicKey)
      .executeTakeFirst();
    expect(key).toEqual({ project_id: Number(out.id), is_active: 1 });
  });

  it("creates an API token that authenticates its user", async () => {
    await cli("user", "create", "--email", "bot@example.com", "--password", "bot password");
    const plain = await cli("token", "create", "--user", "bot@example.com");
    expect(plain.code).toBe(0);
    const token = plain.stdout.trim();
    expect(token).toMatch(/^sntryu_[0-9a-f]{64}$/);
    expect((await userForToken(testCtx(store), token))?.user.email).toBe("bot@example.com");

    const out = json(await cli("token", "create", "--user", "bot@example.com", "--name", "deploys", "--json"));
    expect(out).toEqual({ id: expect.stringMatching(/^\d+$/), token: expect.stringMatching(/^sntryu_/) });
  });

  // A dozen CLI processes, each starting Node: more than the default 30 s on a busy machine.
  it("creates scoped, expiring and organization tokens, lists and revokes them", { timeout: 120_000 }, async () => {
    await cli("user", "create", "--email", "ci@example.com", "--password", "ci password");
    await cli("org", "create", "--slug", "ci-org", "--owner", "ci@example.com");
    const scoped = await cli(
      "token",
      "create",
      "--user",
      "ci@example.com",
      "--name",
      "reader",
      "--scopes",
      "event:read,project:read",
      "--expires-days",
      "7",
    );
    expect(scoped.code).toBe(0);
    const holder = await userForToken(testCtx(store), scoped.stdout.trim());
    expect([...(holder?.scopes ?? [])]).toEqual(["project:read", "event:read"]);
    const bad = await cli("token", "create", "--user", "ci@example.com", "--scopes", "event:delete");
    expect(bad.code).toBe(2);
    expect(bad.stderr).toContain("unknown scope 'event:delete'");
    const org = await cli("token", "create", "--user", "ci@example.com", "--org", "ci-org", "--name", "pipeline");
    expect(org.code).toBe(0);
    expect(org.stdout.trim()).toMatch(/^sntrys_[A-Za-z0-9+/=]+_[A-Za-z0-9+/]{43}$/);
    expect((await userForToken(testCtx(store), org.stdout.trim()))?.organizationId).toEqual(expect.any(Number));
    // Not a member of ci-org: refused.
    const outsider = await cli("token", "create", "--user", "bot@example.com", "--org", "ci-org");
    expect(outsider.code).toBe(1);

    const listed = json(await cli("token", "list", "--user", "ci@example.com", "--json")) as unknown as {
      id: string;
      name: string;
      state: string;
    }[];
    expect(listed.map((t) => [t.name, t.state])).toEqual([["reader", "active"]]);
    expect((await cli("token", "revoke", "--user", "ci@example.com", "--id", listed[0]!.id)).code).toBe(0);
    expect(await userForToken(testCtx(store), scoped.stdout.trim())).toBeNull();
  });

  it("reports an up-to-date database from migrate", async () => {
    expect(await cli("migrate")).toEqual({ code: 0, stdout: "the database is up to date\n", stderr: "" });
  });

  describe("refuses bad input with a readable message", () => {
    it("exits 2 when a required flag is missing", async () => {
      const run = await cli("user", "create", "--password", "no email given");
      expect(run.code).toBe(2);
      expect(run.stderr).toMatch(/^telltale: missing --email\n/);
      expect(run.stderr).toContain("Usage: telltale");
    });

    it("exits 2 when a flag has no value", async () => {
      const run = await cli("org", "create", "--slug");
      expect(run.code).toBe(2);
      expect(run.stderr).toMatch(/^telltale: --slug needs a value\n/);
    });

    it("exits 2 for an unknown flag, naming it and the flags the command takes, and does nothing", async () => {
      const run = await cli("user", "create", "--email", "flag@example.com", "--password", "long enough", "--admin");
      expect(run).toMatchObject({ code: 2, stdout: "" });
      expect(run.stderr).toMatch(
        /^telltale: unknown flag --admin for 'user create' \(it takes --email, --password, --name, --superuser\)\n/,
      );
      expect(await store.db.selectFrom("users").select("id").where("email", "=", "flag@example.com").executeTakeFirst()).toBeUndefined();
    });

    it("exits 2 for a misspelt flag with --json, as JSON", async () => {
      const run = await cli("org", "create", "--slug", "typo", "--onwer", "someone@example.com", "--json");
      expect(run.code).toBe(2);
      expect((JSON.parse(run.stderr) as { error: string }).error).toMatch(/^unknown flag --onwer for 'org create'/);
    });

    it("exits 2 for a stray argument", async () => {
      const run = await cli("migrate", "now");
      expect(run.code).toBe(2);
      expect(run.stderr).toMatch(/^telltale: unexpected argument 'now' for 'migrate'\n/);
    });

    it("exits 2 for an unknown command", async () => {
      const run = await cli("frobnicate", "now");
      expect(run.code).toBe(2);
      expect(run.stderr).toMatch(/^telltale: unknown command 'frobnicate now'\n/);
    });

    it("exits 2 and prints usage without a command", async () => {
      const run = await cli();
      expect(run.code).toBe(2);
      expect(run.stdout).toContain("Usage: telltale");
    });

    it("accepts every platform that has a setup guide for --platform, and lists them in the usage", async () => {
      await cli("user", "create", "--email", "platforms@example.com", "--password", "platform password");
      await cli("org", "create", "--slug", "platforms", "--owner", "platforms@example.com");
      for (const id of PLATFORM_IDS) {
        const out = json(await cli("project", "create", "--org", "platforms", "--slug", `p-${id}`, "--platform", id, "--json"));
        const row = await store.db.selectFrom("projects").select("platform").where("id", "=", Number(out.id)).executeTakeFirstOrThrow();
        expect(row.platform).toBe(id);
      }
      expect((await cli("--help")).stdout).toContain(PLATFORM_IDS.join(", "));
      // One CLI process per platform (15), each migrating and connecting: minutes on a busy machine.
    }, 180_000);

    it("exits 1 for a platform without a guide, naming the field", async () => {
      const run = await cli("project", "create", "--org", "nope", "--slug", "cobol", "--platform", "cobol");
      expect(run.code).toBe(1);
      expect(run.stderr).toMatch(/^telltale: platform: /);
    });

    it("exits 1 for a project in an unknown organization", async () => {
      expect(await cli("project", "create", "--org", "nope", "--slug", "web")).toEqual({
        code: 1,
        stdout: "",
        stderr: "telltale: organization 'nope' does not exist\n",
      });
    });

    it("exits 1 for a duplicate user", async () => {
      await cli("user", "create", "--email", "twice@example.com", "--password", "first password");
      const run = await cli("user", "create", "--email", "twice@example.com", "--password", "second password");
      expect(run).toEqual({ code: 1, stdout: "", stderr: "telltale: a user with email 'twice@example.com' already exists\n" });
    });

    it("exits 1 for invalid input, naming the field", async () => {
      const run = await cli("user", "create", "--email", "short@example.com", "--password", "short");
      expect(run.code).toBe(1);
      expect(run.stderr).toBe("telltale: password: use at least 8 characters for the password\n");
    });

    it("prints the error as JSON with --json", async () => {
      const run = await cli("token", "create", "--user", "ghost@example.com", "--json");
      expect(run.code).toBe(1);
      expect(JSON.parse(run.stderr)).toEqual({ error: "user 'ghost@example.com' does not exist" });
    });

    it("exits 2 for invalid settings, naming the variable", async () => {
      const run = await telltale(["migrate"], { ...store.env, TELLTALE_PG_POOL_MAX: "none" });
      expect(run.code).toBe(2);
      expect(run.stderr).toContain("TELLTALE_PG_POOL_MAX:");
    });
  });
});

describe.concurrent.each(DIALECTS)("the database line on %s", (dialect) => {
  let store: TestStore;
  // The default log level: the line is shown unless TELLTALE_LOG_LEVEL is warn or error.
  const cli = (...args: string[]) => telltale(args, { ...store.env, TELLTALE_LOG_LEVEL: "info" });
  const expected = () =>
    dialect === "sqlite"
      ? `telltale: database ${join(store.env.TELLTALE_DATA_DIR ?? "", "telltale.sqlite")}\n`
      : `telltale: database postgres://${new URL(PG_URL).host}/${new URL(store.env.DATABASE_URL ?? "").pathname.slice(1)}\n`;

  beforeAll(async () => {
    store = await openTestStore(dialect);
  });
  afterAll(() => store.cleanup());

  it("names the database on stderr and leaves stdout to the result", async () => {
    await cli("org", "create", "--slug", "lines");
    const plain = await cli("project", "create", "--org", "lines", "--slug", "web");
    expect(plain.code).toBe(0);
    expect(plain.stdout).toMatch(/^http:\/\/[0-9a-f]{32}@telltale\.test:8000\/\d+\n$/);
    expect(plain.stderr).toBe(expected());

    const json = await cli("project", "create", "--org", "lines", "--slug", "api", "--json");
    expect(json.stderr).toBe(expected());
    expect(JSON.parse(json.stdout)).toMatchObject({ slug: "api" });
  });

  it.runIf(dialect === "sqlite")("says when it is about to create a new SQLite database", async () => {
    const dir = mkdtempSync(join(tmpdir(), "telltale-cli-new-"));
    try {
      const run = await telltale(["migrate", "--json"], { TELLTALE_DATA_DIR: dir, TELLTALE_LOG_LEVEL: "info" });
      expect(run.code).toBe(0);
      expect(run.stderr).toBe(
        `telltale: database ${join(dir, "telltale.sqlite")} (new: none there yet; set TELLTALE_DATA_DIR or DATABASE_URL to use another)\n`,
      );
      expect(JSON.parse(run.stdout)).toMatchObject({ applied: expect.arrayContaining(["0001_foundation"]) });
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});

describe("telltale serve on a port in use", () => {
  it("exits 1 at once with a one-line message", async () => {
    const busy = createServer();
    await new Promise<void>((r) => busy.listen(0, "127.0.0.1", r));
    const port = (busy.address() as AddressInfo).port;
    const dir = mkdtempSync(join(tmpdir(), "telltale-cli-busy-"));
    try {
      const env = { TELLTALE_DATA_DIR: dir, PORT: String(port), TELLTALE_HOST: "127.0.0.1", TELLTALE_SELF_DSN: "off" };
      const run = await telltale(["serve"], env, "dist/cli.js");
      expect(run).toEqual({
        code: 1,
        stdout: "",
        stderr: `telltale: port ${port} on 127.0.0.1 is already in use: stop the other server or set PORT\n`,
      });
      // No lingering worker: the digest worker (and its retention job) stops with the failed start,
      // or the process would never close and the run above would not have returned.
    } finally {
      busy.close();
      rmSync(dir, { recursive: true, force: true });
    }
  }, 30_000);
});

describe.concurrent.each(DIALECTS)("telltale migrate on an empty %s database", (dialect) => {
  let env: Record<string, string>;
  let cleanup: () => Promise<void>;

  beforeAll(async () => {
    const dir = mkdtempSync(join(tmpdir(), "telltale-cli-"));
    if (dialect === "sqlite") {
      env = { TELLTALE_DATA_DIR: dir };
      cleanup = async () => rmSync(dir, { recursive: true, force: true });
      return;
    }
    const name = `telltale_t_${randomBytes(6).toString("hex")}`;
    const admin = new pg.Client({ connectionString: PG_URL });
    await admin.connect();
    await admin.query(`CREATE DATABASE ${name}`);
    await admin.end();
    const url = new URL(PG_URL);
    url.pathname = `/${name}`;
    env = { TELLTALE_DATA_DIR: dir, DATABASE_URL: url.toString() };
    cleanup = async () => {
      const c = new pg.Client({ connectionString: PG_URL });
      await c.connect();
      await c.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
      await c.end();
      rmSync(dir, { recursive: true, force: true });
    };
  });
  afterAll(() => cleanup());

  it("succeeds when several processes migrate at the same time, applying each migration once", async () => {
    const runs = await Promise.all([1, 2, 3].map(() => telltale(["migrate", "--json"], env)));
    for (const run of runs) expect(run, run.stderr).toMatchObject({ code: 0, stderr: "" });
    const applied = runs.flatMap((run) => (JSON.parse(run.stdout) as { applied: string[] }).applied);
    expect(applied).toContain("0001_foundation");
    expect(new Set(applied).size).toBe(applied.length);
    expect(JSON.parse((await telltale(["migrate", "--json"], env)).stdout)).toEqual({ applied: [] });
  });
});
