import { randomBytes } from "node:crypto";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import pg from "pg";
import { connect, type ConnectOptions, type Dialect, type Store } from "../../src/db/connect";
import { migrate } from "../../src/db/migrate";
import type { Ctx } from "../../src/core/context";
import { createCtx, type CtxSettings } from "../../src/db/create-ctx";
import { databaseUrl, pgTemplate } from "./pg-template";

/** Every storage test runs on both databases. */
export const DIALECTS: Dialect[] = ["sqlite", "postgres"];

export const PG_URL = process.env.TEST_DATABASE_URL ?? "postgres://postgres@127.0.0.1:5432/test";

export interface TestStore extends Store {
  /** Connection settings for another process (a server or the CLI) to open the same data. */
  env: Record<string, string>;
  cleanup(): Promise<void>;
}

/**
 * A fresh, migrated database per suite: a new SQLite file in a temporary directory, or a
 * new PostgreSQL database (so that processes spawned by the test, which cannot be told a
 * schema, see the same isolated data).
 */
export async function openTestStore(dialect: Dialect, options: Pick<ConnectOptions, "digest"> = {}): Promise<TestStore> {
  const dir = mkdtempSync(join(tmpdir(), "telltale-test-"));
  if (dialect === "sqlite") {
    const store = connect({ kind: "sqlite", file: join(dir, "telltale.sqlite") }, options);
    await migrate(store);
    return {
      ...store,
      env: { TELLTALE_DATA_DIR: dir },
      async cleanup() {
        await store.close();
        rmSync(dir, { recursive: true, force: true });
      },
    };
  }
  const name = `telltale_t_${randomBytes(6).toString("hex")}`;
  const url = databaseUrl(PG_URL, name);
  const copied = await copyOfTemplate(name);
  const store = connect({ kind: "postgres", url, poolMax: 4 });
  if (!copied) await migrate(store);
  return {
    ...store,
    env: { TELLTALE_DATA_DIR: dir, DATABASE_URL: url },
    async cleanup() {
      await store.close();
      const c = new pg.Client({ connectionString: PG_URL });
      await c.connect();
      await c.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
      await c.end();
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

/**
 * Creates the database as a copy of the migrated template; false when it had to be created
 * empty instead (the template busy or gone, as when worktrees with other migrations share the
 * server), and the caller migrates it.
 */
async function copyOfTemplate(name: string): Promise<boolean> {
  const admin = new pg.Client({ connectionString: PG_URL });
  await admin.connect();
  try {
    const template = await pgTemplate(PG_URL).catch(() => null);
    if (template) {
      try {
        await admin.query(`CREATE DATABASE ${name} TEMPLATE ${template}`);
        return true;
      } catch {
        // fall through to an empty database
      }
    }
    await admin.query(`CREATE DATABASE ${name}`);
    return false;
  } finally {
    await admin.end();
  }
}

/** The settings tests run with: a test URL and key and the default sign-in limits. */
export const TEST_CTX_SETTINGS: CtxSettings = {
  publicUrl: "http://telltale.test:8000",
  secretKey: "test secret key, 32 characters or more",
  sessionDays: 14,
  loginMaxFailures: 10,
  loginAccountMaxFailures: 100,
  loginWindowSeconds: 900,
};

/** The context the server would build on `store`, with the test settings and any overrides. */
export function testCtx(store: Store, overrides: Partial<Ctx> = {}): Ctx {
  return { ...createCtx(TEST_CTX_SETTINGS, store), ...overrides };
}
