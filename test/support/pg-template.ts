import { createHash, randomBytes } from "node:crypto";
import { readdirSync, readFileSync } from "node:fs";
import { fileURLToPath } from "node:url";
import pg from "pg";
import { connect } from "../../src/db/connect";
import { migrate } from "../../src/db/migrate";

/**
 * A migrated PostgreSQL database that test databases are copied from (`CREATE DATABASE …
 * TEMPLATE`): copying takes a fraction of what running every migration on a new database does,
 * and nearly every storage test file opens one. Its name carries a hash of the migrations, so a
 * changed migration gets a template of its own; the first process to need it builds it under an
 * advisory lock while the others wait.
 */
const MIGRATIONS = fileURLToPath(new URL("../../src/db/migrations/", import.meta.url));
const LOCK = "select pg_advisory_lock(hashtext('telltale test template'))";
const UNLOCK = "select pg_advisory_unlock(hashtext('telltale test template'))";

function migrationsHash(): string {
  const hash = createHash("sha256");
  for (const file of readdirSync(MIGRATIONS).sort()) {
    if (!file.endsWith(".ts") || file.endsWith(".test.ts")) continue;
    hash.update(file).update(readFileSync(MIGRATIONS + file));
  }
  return hash.digest("hex").slice(0, 16);
}

export function databaseUrl(base: string, name: string): string {
  const url = new URL(base);
  url.pathname = `/${name}`;
  return url.toString();
}

let template: Promise<string> | undefined;

/** The template's name, built on first use. */
export function pgTemplate(adminUrl: string): Promise<string> {
  template ??= buildTemplate(adminUrl);
  return template;
}

async function buildTemplate(adminUrl: string): Promise<string> {
  const name = `telltale_tpl_${migrationsHash()}`;
  const admin = new pg.Client({ connectionString: adminUrl });
  await admin.connect();
  try {
    await admin.query(LOCK);
    const found = await admin.query("select 1 from pg_database where datname = $1", [name]);
    if (found.rowCount === 0) {
      // Built under another name and renamed when complete: a half-built template is never used.
      const building = `${name}_${randomBytes(3).toString("hex")}`;
      await admin.query(`create database ${building}`);
      const store = connect({ kind: "postgres", url: databaseUrl(adminUrl, building), poolMax: 1 });
      try {
        await migrate(store);
      } finally {
        await store.close();
      }
      await admin.query(`alter database ${building} rename to ${name}`);
    }
    await admin.query(UNLOCK);
    return name;
  } finally {
    await admin.end();
  }
}
