import { spawn } from "node:child_process";
import { randomBytes } from "node:crypto";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import pg from "pg";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { parseDsn } from "../../src/core/auth/dsn";
import { userForToken } from "../../src/core/tokens/tokens";
import { DIALECTS, openTestStore, PG_URL, testCtx, type TestStore } from "../support/stores";

const ROOT = join(import.meta.dirname, "..", "..");
const PUBLIC_URL = "http://telltale.test:8000";

interface Run {
  code: number | null;
  stdout: string;
  stderr: string;
}

/** Runs `telltale …` as a user would, with only the given settings in its environment. */
function telltale(args: string[], env: Record<string, string>): Promise<Run> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [join(ROOT, "bin/telltale.mjs"), ...args], {
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
    expect(await store.db.selectFrom("users").select(["email", "name", "is_superuser"]).where("email", "=", "ada@example.com").executeTakeFirst()).toEqual({
      email: "ada@example.com",
      name: "Ada",
      is_superuser: 0,
    });
  });

  it("creates a superuser and prints JSON with --json", async () => {
    const out = json(await cli("user", "create", "--email=root@example.com", "--password=root password", "--superuser", "--json"));
    expect(out).toEqual({ id: expect.stringMatching(/^\d+$/), email: "root@example.com", isSuperuser: true });
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
    const key = await store.db.selectFrom("project_keys").select(["project_id", "is_active"]).where("public_key", "=", dsn!.publicKey).executeTakeFirst();
    expect(key).toEqual({ project_id: Number(out.id), is_active: 1 });
  });

  it("creates an API token that authenticates its user", async () => {
    await cli("user", "create", "--email", "bot@example.com", "--password", "bot password");
    const plain = await cli("token", "create", "--user", "bot@example.com");
    expect(plain.code).toBe(0);
    const token = plain.stdout.trim();
    expect(token).toMatch(/^tlt_[0-9a-f]{64}$/);
    expect((await userForToken(testCtx(store), token))?.email).toBe("bot@example.com");

    const out = json(await cli("token", "create", "--user", "bot@example.com", "--name", "deploys", "--json"));
    expect(out).toEqual({ id: expect.stringMatching(/^\d+$/), token: expect.stringMatching(/^tlt_/) });
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
