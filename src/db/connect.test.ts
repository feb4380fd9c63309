import { existsSync, mkdtempSync, rmSync, statSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import SQLite from "better-sqlite3";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { sql, type Kysely } from "kysely";
import type { QueueDB } from "./schema";
import pg from "pg";
import { DIALECTS, openTestStore, PG_URL, type TestStore } from "../../test/support/stores";
import { cachingStatements, connect, MAIN_PAGE_BYTES, type Store } from "./connect";
import { migrate } from "./migrate";
import { checkpointQueue, QUEUE_PAGE_BYTES, queueFileOf, upgradeQueuePages } from "./queue";

describe.each(DIALECTS)("a %s store", (dialect) => {
  let store: TestStore;

  beforeAll(async () => {
    store = await openTestStore(dialect);
  });
  afterAll(() => store.cleanup());

  it("enforces foreign keys", async () => {
    await expect(
      store.db
        .insertInto("projects")
        .values({ organization_id: 999_999, slug: "orphan", name: "orphan", platform: "node", created_at: 0 })
        .execute(),
    ).rejects.toThrow(/foreign key/i);
  });

  it("deletes a project's keys with the project", async () => {
    const org = await store.db
      .insertInto("organizations")
      .values({ slug: "fk", name: "fk", is_internal: 0, created_at: 0 })
      .returning("id")
      .executeTakeFirstOrThrow();
    const project = await store.db
      .insertInto("projects")
      .values({ organization_id: org.id, slug: "p", name: "p", platform: "node", created_at: 0 })
      .returning("id")
      .executeTakeFirstOrThrow();
    await store.db
      .insertInto("project_keys")
      .values({ project_id: project.id, label: "k", public_key: "a".repeat(32), secret_key: "b".repeat(32), is_active: 1, created_at: 0 })
      .execute();
    await store.db.deleteFrom("projects").where("id", "=", project.id).execute();
    expect(await store.db.selectFrom("project_keys").select("id").where("project_id", "=", project.id).execute()).toEqual([]);
  });

  it("rolls a failed transaction back", async () => {
    await expect(
      store.db.transaction().execute(async (trx) => {
        await trx.insertInto("organizations").values({ slug: "rolled-back", name: "x", is_internal: 0, created_at: 0 }).execute();
        throw new Error("abort");
      }),
    ).rejects.toThrow("abort");
    expect(await store.db.selectFrom("organizations").select("id").where("slug", "=", "rolled-back").executeTakeFirst()).toBeUndefined();
  });
});

describe("connect to SQLite", () => {
  let dir: string;
  beforeAll(() => {
    dir = mkdtempSync(join(tmpdir(), "telltale-connect-"));
  });
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it("creates the data directory for the database file", async () => {
    const file = join(dir, "nested", "deeper", "telltale.sqlite");
    const store = connect({ kind: "sqlite", file });
    try {
      await migrate(store);
      expect(existsSync(file)).toBe(true);
    } finally {
      await store.close();
    }
  });

  it("makes new main and queue files with 16 KiB pages, and keeps the pages of files made before", async () => {
    const file = join(dir, "pages.sqlite");
    const store = connect({ kind: "sqlite", file });
    const pageSize = async (db: typeof store.db | typeof store.queue) =>
      Number((await sql<{ page_size: number }>`pragma page_size`.execute(db)).rows[0]?.page_size);
    try {
      expect(await pageSize(store.queue)).toBe(QUEUE_PAGE_BYTES);
      expect(QUEUE_PAGE_BYTES).toBe(16 * 1024);
      expect(await pageSize(store.db)).toBe(MAIN_PAGE_BYTES);
      expect(MAIN_PAGE_BYTES).toBe(16 * 1024);
    } finally {
      await store.close();
    }

    const older = join(dir, "older.sqlite");
    const made = new SQLite(queueFileOf(older));
    made.pragma("journal_mode = WAL");
    made.exec(
      "create table ingest_queue (id integer primary key autoincrement, project_id integer not null, key_id integer not null, endpoint text not null, received_at integer not null, body blob not null)",
    );
    made.prepare("insert into ingest_queue (project_id, key_id, endpoint, received_at, body) values (1, 1, 'envelope', 0, x'00')").run();
    made.close();
    const main = new SQLite(older);
    main.pragma("journal_mode = WAL");
    main.exec("create table kept (id integer primary key, note text not null)");
    main.prepare("insert into kept (note) values ('made with 4 KiB pages')").run();
    main.close();
    const reopened = connect({ kind: "sqlite", file: older });
    try {
      expect(await pageSize(reopened.queue)).toBe(4096);
      expect(await reopened.queue.selectFrom("ingest_queue").select("id").execute()).toHaveLength(1);
      expect(await pageSize(reopened.db)).toBe(4096);
      expect((await sql<{ note: string }>`select note from kept`.execute(reopened.db)).rows).toEqual([{ note: "made with 4 KiB pages" }]);
      await migrate(reopened);
      expect(await pageSize(reopened.db)).toBe(4096);
    } finally {
      await reopened.close();
    }
  });

  describe("a queue file made with SQLite's 4 KiB pages", () => {
    /** A queue file as older versions made it: 4 KiB pages, WAL, no auto-vacuum; `rows` rows of 6 KiB bodies. */
    const olderQueue = (name: string, rows: number) => {
      const file = join(dir, `${name}.sqlite`);
      const made = new SQLite(queueFileOf(file));
      made.pragma("journal_mode = WAL");
      made.exec(
        "create table ingest_queue (id integer primary key autoincrement, project_id integer not null, key_id integer not null, endpoint text not null, received_at integer not null, body blob not null)",
      );
      const insert = made.prepare(
        "insert into ingest_queue (project_id, key_id, endpoint, received_at, body) values (1, 1, 'envelope', ?, ?)",
      );
      for (let i = 1; i <= rows; i++) insert.run(i, Buffer.alloc(6000, i));
      made.close();
      return file;
    };
    const pragma = async (store: { queue: Kysely<QueueDB> }, name: string) =>
      (await sql.raw<Record<string, unknown>>(`pragma ${name}`).execute(store.queue)).rows[0]?.[name];
    const queued = (store: { queue: Kysely<QueueDB> }) =>
      store.queue.selectFrom("ingest_queue").select(["id", "received_at", "body"]).orderBy("id").execute();
    const opened = async (file: string, digestedUpTo: number) => {
      const store = connect({ kind: "sqlite", file }, { checkpoints: false, queueWriter: true });
      await migrate(store);
      await store.db.insertInto("digest_progress").values({ id: 1, last_queue_id: digestedUpTo }).execute();
      return store;
    };

    it("is rewritten with 16 KiB pages at start, without its digested rows, each other row, id and body kept, and the id sequence", async () => {
      const store = await opened(olderQueue("upgrade", 5), 2);
      try {
        expect(await pragma(store, "page_size")).toBe(4096);
        const result = await upgradeQueuePages(store);
        expect(result).toMatchObject({ upgraded: true, fromPageBytes: 4096 });
        expect(await pragma(store, "page_size")).toBe(QUEUE_PAGE_BYTES);
        expect(await pragma(store, "journal_mode")).toBe("wal");
        // 2 = incremental: the file can give freed pages back from now on.
        expect(await pragma(store, "auto_vacuum")).toBe(2);
        const rows = await queued(store);
        expect(rows.map((r) => [r.id, r.received_at, Buffer.from(r.body).equals(Buffer.alloc(6000, r.id))])).toEqual([
          [3, 3, true],
          [4, 4, true],
          [5, 5, true],
        ]);
        const next = await store.queue
          .insertInto("ingest_queue")
          .values({ project_id: 1, key_id: 1, endpoint: "envelope", received_at: 6, body: Buffer.alloc(1) })
          .returning("id")
          .executeTakeFirstOrThrow();
        expect(next.id).toBe(6);
        expect(await upgradeQueuePages(store)).toEqual({ upgraded: false, reason: "current", pageBytes: QUEUE_PAGE_BYTES });
      } finally {
        await store.close();
      }
    });

    it("is left as it was while another connection has it open", async () => {
      const file = olderQueue("in-use", 3);
      const other = new SQLite(queueFileOf(file));
      other.prepare("select count(*) from ingest_queue").get();
      const store = await opened(file, 0);
      try {
        expect(await upgradeQueuePages(store)).toEqual({ upgraded: false, reason: "in_use", pageBytes: 4096 });
        expect(await pragma(store, "page_size")).toBe(4096);
        expect(await pragma(store, "journal_mode")).toBe("wal");
        expect((await queued(store)).map((r) => r.id)).toEqual([1, 2, 3]);
      } finally {
        await store.close();
        other.close();
      }
    });

    it("keeps its pages while its undigested rows are more than a quick rewrite, and is rewritten once they are digested", async () => {
      const store = await opened(olderQueue("backlog", 20), 0);
      try {
        // 20 rows of 6 KB: ~120 KB of live pages, over a 64 KiB bound.
        expect(await upgradeQueuePages(store, 64 * 1024)).toEqual({ upgraded: false, reason: "backlog", pageBytes: 4096 });
        expect(await pragma(store, "page_size")).toBe(4096);
        expect((await queued(store)).length).toBe(20);
        await store.db.updateTable("digest_progress").set({ last_queue_id: 18 }).execute();
        expect(await upgradeQueuePages(store, 64 * 1024)).toMatchObject({ upgraded: true });
        expect((await queued(store)).map((r) => r.id)).toEqual([19, 20]);
      } finally {
        await store.close();
      }
    });
  });

  it("keeps the digest connection's statement journals in memory, and leaves every other connection's temporary files on disk", async () => {
    const file = join(dir, "temp-store.sqlite");
    const tempStore = async (store: Store) => (await sql<{ temp_store: number }>`pragma temp_store`.execute(store.db)).rows[0]?.temp_store;
    const digest = connect({ kind: "sqlite", file }, { digest: true });
    const page = connect({ kind: "sqlite", file }, { checkpoints: false });
    try {
      // 2 = MEMORY, 0 = the build's default (files).
      expect(await tempStore(digest)).toBe(2);
      expect(await tempStore(page)).toBe(0);
    } finally {
      await digest.close();
      await page.close();
    }
  });

  it("runs no automatic checkpoint on a connection opened without checkpoints: its commits never copy the WAL", async () => {
    const fileSize = (f: string) => statSync(f).size;
    const written = async (checkpoints: boolean) => {
      const file = join(dir, `checkpoints-${checkpoints}.sqlite`);
      const store = connect({ kind: "sqlite", file }, { checkpoints });
      try {
        await sql`create table filler (b blob)`.execute(store.db);
        await sql`create table queue_filler (b blob)`.execute(store.queue);
        const before = { main: fileSize(file), queue: fileSize(queueFileOf(file)) };
        // 3,000 pages of 16 KiB in each file, in commits of 100: well past the automatic
        // checkpoint's 1,000 pages.
        for (let i = 0; i < 30; i++) {
          await sql`insert into filler (b) select zeroblob(16000) from (select 1 union all select 1) a, (select 1 union all select 1 union all select 1 union all select 1 union all select 1) b, (select 1 union all select 1 union all select 1 union all select 1 union all select 1 union all select 1 union all select 1 union all select 1 union all select 1 union all select 1) c`.execute(
            store.db,
          );
          await sql`insert into queue_filler (b) select zeroblob(16000) from (select 1 union all select 1) a, (select 1 union all select 1 union all select 1 union all select 1 union all select 1) b, (select 1 union all select 1 union all select 1 union all select 1 union all select 1 union all select 1 union all select 1 union all select 1 union all select 1 union all select 1) c`.execute(
            store.queue,
          );
        }
        const after = { main: fileSize(file), queue: fileSize(queueFileOf(file)) };
        // What the digest thread does instead: a passive checkpoint copies the pages into the file.
        await sql`pragma wal_checkpoint(PASSIVE)`.execute(store.db);
        await checkpointQueue(store.queue);
        return { grew: { main: after.main - before.main, queue: after.queue - before.queue }, checkpointed: fileSize(file) - before.main };
      } finally {
        await store.close();
      }
    };
    const MiB = 1024 * 1024;
    const off = await written(false);
    expect(off.grew.main).toBeLessThan(MiB);
    expect(off.grew.queue).toBeLessThan(MiB);
    expect(off.checkpointed).toBeGreaterThan(10 * MiB);
    const on = await written(true);
    expect(on.grew.main).toBeGreaterThan(3 * MiB);
    expect(on.grew.queue).toBeGreaterThan(3 * MiB);
  });

  it("takes the write lock when a transaction begins, so another writer cannot slip in between its read and its write", async () => {
    const file = join(dir, "locking.sqlite");
    const store = connect({ kind: "sqlite", file });
    // Another connection, as the other thread or a CLI process has; it does not wait for locks.
    const other = new SQLite(file);
    other.pragma("busy_timeout = 0");
    const otherWrite = () =>
      other
        .prepare("insert into organizations (slug, name, is_internal, created_at) values (?, 'x', 0, 0)")
        .run(`o${Date.now()}${Math.random()}`);
    try {
      await migrate(store);
      await store.db.transaction().execute(async (trx) => {
        await trx.selectFrom("organizations").select("id").execute();
        expect(otherWrite).toThrow(/database is locked/);
        await trx.insertInto("organizations").values({ slug: "inside", name: "inside", is_internal: 0, created_at: 0 }).execute();
      });
      expect(otherWrite).not.toThrow();
    } finally {
      other.close();
      await store.close();
    }
  });
});

describe("connect to PostgreSQL", () => {
  it("survives the server closing an idle pooled connection and opens a new one", async () => {
    const store = await openTestStore("postgres");
    try {
      const before = await sql<{ pid: number }>`select pg_backend_pid() as pid`.execute(store.db);
      const pid = before.rows[0]!.pid;
      const admin = new pg.Client({ connectionString: PG_URL });
      await admin.connect();
      await admin.query("select pg_terminate_backend($1)", [pid]);
      await admin.end();
      await new Promise((r) => setTimeout(r, 200)); // the idle client sees the termination
      const after = await sql<{ pid: number }>`select pg_backend_pid() as pid`.execute(store.db);
      expect(after.rows[0]!.pid).not.toBe(pid);
    } finally {
      await store.cleanup();
    }
  });
});

describe("the SQLite statement cache", () => {
  it("prepares the same SQL once and keeps a bounded number of statements", () => {
    const raw = new SQLite(":memory:");
    let prepared = 0;
    const prepare = raw.prepare.bind(raw);
    raw.prepare = ((text: string) => {
      prepared++;
      return prepare(text);
    }) as typeof raw.prepare;
    const db = cachingStatements(raw);
    const a = db.prepare("select 1 as n");
    expect(db.prepare("select 1 as n")).toBe(a);
    expect(prepared).toBe(1);
    for (let i = 0; i < 600; i++) db.prepare(`select ${i} as m`);
    expect(prepared).toBe(601);
    // The oldest statement was dropped: preparing it again is a new statement.
    expect(db.prepare("select 1 as n")).not.toBe(a);
    expect(db.prepare("select 599 as m").all([])).toEqual([{ m: 599 }]);
    db.close();
  });
});
