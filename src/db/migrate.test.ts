import { randomBytes } from "node:crypto";
import { join } from "node:path";
import { sql } from "kysely";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { DIALECTS, openTestStore, type TestStore } from "../../test/support/stores";
import { connect, type Store } from "./connect";
import { migrate } from "./migrate";
import { INTERNAL_ORG_SLUG, INTERNAL_PROJECT_SLUG } from "./migrations/0002_internal_project";

const FOUNDATION = ["0001_foundation", "0002_internal_project", "0003_ingest_queue"];

async function counts(store: Store) {
  const count = async (table: "organizations" | "projects" | "project_keys" | "users") =>
    Number(
      (
        await store.db
          .selectFrom(table)
          .select((eb) => eb.fn.countAll<number>().as("n"))
          .executeTakeFirstOrThrow()
      ).n,
    );
  return {
    users: await count("users"),
    organizations: await count("organizations"),
    projects: await count("projects"),
    keys: await count("project_keys"),
  };
}

describe.each(DIALECTS)("migrate on %s", (dialect) => {
  let store: TestStore;

  beforeAll(async () => {
    store = await openTestStore(dialect);
  });
  afterAll(() => store.cleanup());

  /**
   * An empty database beside the test store's: a new SQLite file, or a new PostgreSQL schema
   * (connect's `schema` option) that does not exist yet, so migrate must create it.
   */
  function openEmpty(): Store {
    const name = `empty_${randomBytes(4).toString("hex")}`;
    if (dialect === "sqlite") return connect({ kind: "sqlite", file: join(store.env.TELLTALE_DATA_DIR!, `${name}.sqlite`) });
    return connect({ kind: "postgres", url: store.env.DATABASE_URL!, poolMax: 2 }, { schema: name });
  }

  it("applies every migration, in order, to an empty database", async () => {
    const empty = openEmpty();
    try {
      const { applied } = await migrate(empty);
      expect(applied.slice(0, FOUNDATION.length)).toEqual(FOUNDATION);
      expect(applied).toEqual([...applied].sort());
      // Every migration ran: running again has nothing left to apply.
      expect(await migrate(empty)).toEqual({ applied: [] });
      expect(await counts(empty)).toEqual({ users: 0, organizations: 1, projects: 1, keys: 1 });
    } finally {
      await empty.close();
    }
  });

  it.runIf(dialect === "postgres")("compresses the queue's bodies with lz4 where the server has it (PostgreSQL 14+)", async () => {
    const version = await sql<{ v: string }>`select current_setting('server_version_num') as v`.execute(store.db);
    if (Number(version.rows[0]!.v) < 140_000) return;
    const column = await sql<{ c: string }>`
      select attcompression as c from pg_attribute
      where attrelid = to_regclass('ingest_queue') and attname = 'body'`.execute(store.db);
    expect(column.rows).toEqual([{ c: "l" }]);
  });

  it("does nothing when run again", async () => {
    const before = await counts(store);
    expect(await migrate(store)).toEqual({ applied: [] });
    expect(await migrate(store)).toEqual({ applied: [] });
    expect(await counts(store)).toEqual(before);
  });

  it("creates the internal organization with its project and an active key", async () => {
    const rows = await store.db
      .selectFrom("organizations")
      .innerJoin("projects", "projects.organization_id", "organizations.id")
      .innerJoin("project_keys", "project_keys.project_id", "projects.id")
      .select([
        "organizations.is_internal",
        "projects.slug as project",
        "project_keys.public_key",
        "project_keys.secret_key",
        "project_keys.is_active",
      ])
      .where("organizations.slug", "=", INTERNAL_ORG_SLUG)
      .execute();
    expect(rows).toHaveLength(1);
    expect(rows[0]).toMatchObject({ is_internal: 1, project: INTERNAL_PROJECT_SLUG, is_active: 1 });
    expect(rows[0]?.public_key).toMatch(/^[0-9a-f]{32}$/);
    expect(rows[0]?.secret_key).toMatch(/^[0-9a-f]{32}$/);
  });

  it("gives every database its own internal key", async () => {
    const other = openEmpty();
    try {
      await migrate(other);
      const key = (s: Store) => s.db.selectFrom("project_keys").select("public_key").executeTakeFirstOrThrow();
      expect((await key(other)).public_key).not.toBe((await key(store)).public_key);
    } finally {
      await other.close();
    }
  });

  it("reads flags and millisecond timestamps back as numbers", async () => {
    const org = await store.db.selectFrom("organizations").select(["is_internal", "created_at"]).executeTakeFirstOrThrow();
    expect(typeof org.is_internal).toBe("number");
    expect(typeof org.created_at).toBe("number");
    expect(org.created_at).toBeGreaterThan(Date.UTC(2024, 0, 1));
  });
});
