// The servers under test — the floor and Telltale (`dist/cli.js serve`) on SQLite or on a
// fresh PostgreSQL database — with their set-up (user, organization, project, token through
// the real CLI), start-to-ready timing, and read access to their database for counting rows.
import { spawn } from "node:child_process";
import { createHash, randomBytes } from "node:crypto";
import { existsSync, mkdirSync, readFileSync, rmSync } from "node:fs";
import { request } from "node:http";
import { join } from "node:path";
import process from "node:process";
import Database from "better-sqlite3";
import pg from "pg";
import { CACHE, fileSize, freePort, log, procStats, ROOT, run, sleep, stopChild, until } from "./util.mjs";
import { performance } from "node:perf_hooks";
import { URL } from "node:url";
import { Buffer } from "node:buffer";

export const PG_ADMIN_URL = process.env.BENCH_PG_URL ?? "postgres://postgres@127.0.0.1:5432/postgres";
/** The checkout whose build is measured: this one, or another given by --server-root. */
export const serverRoot = () => process.env.BENCH_SERVER_ROOT ?? ROOT;
/**
 * The Node.js flags `npm start` gives the server (package.json's `start` script, e.g. the main
 * thread's young generation size): the bench runs `dist/cli.js serve` as that script would.
 */
export function startFlags(root = serverRoot()) {
  const start = startScript(root);
  const flags = /\bnode((?: --[\w-]+(?:=\S+)?)*) scripts\/start\.mjs/.exec(start);
  if (!flags) throw new Error(`package.json's start script does not run scripts/start.mjs with node: ${start}`);
  return flags[1].split(" ").filter(Boolean);
}
/** The environment `npm start`'s script sets before it runs node (glibc's malloc settings). */
export function startEnv(root = serverRoot()) {
  const assignments = /^((?:[A-Z_][A-Z0-9_]*=\S* +)*)(?:exec +)?node\b/.exec(startScript(root));
  return Object.fromEntries(
    (assignments?.[1] ?? "")
      .split(" ")
      .filter(Boolean)
      .map((kv) => [kv.slice(0, kv.indexOf("=")), kv.slice(kv.indexOf("=") + 1)]),
  );
}
const startScript = (root) => JSON.parse(readFileSync(join(root, "package.json"), "utf8")).scripts.start;
/** What `--server-env` sets in the server's environment alone. */
const serverEnv = () => JSON.parse(process.env.BENCH_SERVER_ENV ?? "{}");
const RUN_DIR = join(CACHE, "run");

/** The floor server in its own process. */
export async function startFloor() {
  mkdirSync(RUN_DIR, { recursive: true });
  const file = join(RUN_DIR, `floor-${process.pid}.log`);
  rmSync(file, { force: true });
  const port = await freePort();
  const child = spawn(process.execPath, [join(ROOT, "bench/floor.mjs"), String(port), file], { stdio: ["ignore", "pipe", "inherit"] });
  const ok = await until(() => child.stdout.read()?.toString().includes("listening"), { timeoutMs: 10_000, everyMs: 20 });
  if (!ok) throw new Error("the floor server did not start");
  return {
    name: "floor",
    port,
    pid: child.pid,
    async stop() {
      await stopChild(child);
      rmSync(file, { force: true });
    },
  };
}

/** GET on loopback; resolves with the status (0 when the connection is refused). */
export function httpGet(port, path, headers = {}, timeoutMs = 30_000) {
  return new Promise((resolve) => {
    const req = request({ host: "127.0.0.1", port, path, headers, agent: false, timeout: timeoutMs }, (res) => {
      const chunks = [];
      res.on("data", (c) => chunks.push(c));
      res.on("end", () => resolve({ status: res.statusCode, body: Buffer.concat(chunks), headers: res.headers }));
    });
    req.on("timeout", () => req.destroy(new Error("timeout")));
    req.on("error", () => resolve({ status: 0, body: Buffer.alloc(0), headers: {} }));
    req.end();
  });
}

/** A fresh Telltale data set: SQLite in a new directory, or a new PostgreSQL database. */
export async function createTarget(dialect, label) {
  const dir = join(RUN_DIR, `${label}-${process.pid}`);
  rmSync(dir, { recursive: true, force: true });
  mkdirSync(dir, { recursive: true });
  const env = { TELLTALE_DATA_DIR: dir, TELLTALE_SELF_DSN: "off", TELLTALE_LOG_LEVEL: "info" };
  let pgName = null;
  if (dialect === "postgres") {
    pgName = `telltale_bench_${randomBytes(5).toString("hex")}`;
    const admin = new pg.Client({ connectionString: PG_ADMIN_URL });
    await admin.connect();
    await admin.query(`CREATE DATABASE ${pgName}`);
    await admin.end();
    const url = new URL(PG_ADMIN_URL);
    url.pathname = `/${pgName}`;
    env.DATABASE_URL = url.toString();
  }
  const cli = async (...args) =>
    JSON.parse(
      (
        await run(process.execPath, [join(serverRoot(), "bin/telltale.mjs"), ...args, "--json"], {
          env,
          timeoutMs: 60_000,
          cwd: serverRoot(),
        })
      ).stdout,
    );
  const email = "bench@example.com";
  await cli("user", "create", "--email", email, "--password", "bench-password-123", "--superuser");
  const [{ token }, project] = await Promise.all([
    cli("token", "create", "--user", email),
    cli("org", "create", "--slug", "bench", "--name", "Bench", "--owner", email).then(() =>
      cli("project", "create", "--org", "bench", "--slug", "shop", "--platform", "javascript"),
    ),
  ]);
  const dsn = new URL(project.dsn);
  return {
    dialect,
    label,
    dir,
    env,
    pgName,
    org: "bench",
    project: project.slug,
    projectId: Number(project.id),
    publicKey: dsn.username,
    email,
    apiToken: token,
    async destroy() {
      rmSync(dir, { recursive: true, force: true });
      if (pgName) {
        const admin = new pg.Client({ connectionString: PG_ADMIN_URL });
        await admin.connect();
        await admin.query(`DROP DATABASE IF EXISTS ${pgName} WITH (FORCE)`);
        await admin.end();
      }
    },
  };
}

/**
 * Starts `dist/cli.js serve` for a target and times it: spawn → "listening" (ingest answers),
 * spawn → "web UI ready" log line, spawn → first 200 on /login.
 */
export async function startTelltale(target, { cpuProfDir = null } = {}) {
  const port = await freePort();
  const args = [
    ...startFlags(),
    ...(cpuProfDir ? ["--cpu-prof", "--cpu-prof-dir", cpuProfDir] : []),
    join(serverRoot(), "dist/cli.js"),
    "serve",
  ];
  const t0 = performance.now();
  const child = spawn(process.execPath, args, {
    cwd: serverRoot(),
    env: {
      ...process.env,
      ...startEnv(),
      ...target.env,
      ...serverEnv(),
      PORT: String(port),
      TELLTALE_HOST: "127.0.0.1",
      TELLTALE_URL: `http://127.0.0.1:${port}`,
    },
    stdio: ["ignore", "pipe", "pipe"],
  });
  let output = "";
  const marks = {};
  const onData = (d) => {
    output += d;
    if (output.length > 200_000) output = output.slice(-100_000);
    const now = performance.now() - t0;
    if (marks.listening === undefined && / listening /.test(output)) marks.listening = now;
    if (marks.uiReady === undefined && /web UI ready/.test(output)) marks.uiReady = now;
  };
  child.stdout.on("data", onData);
  child.stderr.on("data", onData);
  const login = await until(
    async () => {
      if (child.exitCode !== null) throw new Error(`telltale exited (${child.exitCode}):\n${output}`);
      return (await httpGet(port, "/login", {}, 5000)).status === 200 ? performance.now() - t0 : null;
    },
    { timeoutMs: 60_000, everyMs: 20 },
  );
  if (login === null) throw new Error(`telltale did not answer /login within 60 s:\n${output}`);
  await until(() => marks.uiReady !== undefined, { timeoutMs: 10_000, everyMs: 20 });
  return {
    name: `telltale-${target.dialect}`,
    port,
    pid: child.pid,
    child,
    startup: { listeningMs: marks.listening, uiReadyMs: marks.uiReady, firstLoginMs: login },
    logs: () => output,
    async stop() {
      await stopChild(child, 15_000);
    },
  };
}

/** Row counts and sizes, read straight from the server's database. */
export async function openDb(target) {
  if (target.dialect === "sqlite") {
    const file = join(target.dir, "telltale.sqlite");
    const db = new Database(file, { readonly: true, fileMustExist: true });
    db.pragma("busy_timeout = 5000");
    const queueFile = join(target.dir, "telltale-queue.sqlite");
    let queue = null;
    const openQueue = () => {
      if (!existsSync(queueFile)) return null;
      const q = new Database(queueFile, { readonly: true, fileMustExist: true });
      q.pragma("busy_timeout = 5000");
      return q;
    };
    const stmts = new Map();
    const get = (sql) => {
      if (!stmts.has(sql)) stmts.set(sql, db.prepare(sql));
      return stmts.get(sql).get();
    };
    return {
      async scalar(sql) {
        return Number(Object.values(get(sql))[0] ?? 0);
      },
      /**
       * Envelopes accepted and not yet digested: the queue has its own file (src/db/queue.ts),
       * whose rows after the digest's progress mark are the backlog. Their ids follow one
       * another, so the newest id less the mark counts them with two index lookups. Counting
       * the rows instead reads every page of the backlog — 166 ms for 150,000 rows here, every
       * 100 ms while `waitDrained` polls — which took a core from the drain it was timing.
       */
      async queued() {
        queue ??= openQueue();
        if (!queue) return 0;
        const done = Number(Object.values(get("SELECT coalesce(max(last_queue_id), 0) FROM digest_progress"))[0] ?? 0);
        const newest = Number(queue.prepare("SELECT coalesce(max(id), 0) AS n FROM ingest_queue").get().n);
        return Math.max(0, newest - done);
      },
      /**
       * What is stored: the main file with its WAL. The queue file is reported apart
       * (`queueBytes`): it holds envelopes only until they are digested, and its pages go back
       * to the file system once the queue is idle (src/core/ingest/queue-writer.ts, giveBack).
       */
      async bytes() {
        const files = [file, `${file}-wal`, queueFile, `${queueFile}-wal`];
        log(`  database files: ${files.map((f) => `${f.split("/").pop()} ${(fileSize(f) / 2 ** 20).toFixed(0)} MB`).join(", ")}`);
        return fileSize(file) + fileSize(`${file}-wal`) + fileSize(`${file}-shm`);
      },
      async queueBytes() {
        return fileSize(queueFile) + fileSize(`${queueFile}-wal`) + fileSize(`${queueFile}-shm`);
      },
      /** Opens a login session for the bench user directly (src/core/accounts/login.ts stores sha256(token)). */
      async session(email) {
        const token = randomBytes(32).toString("base64url");
        const rw = new Database(file, { fileMustExist: true });
        rw.pragma("busy_timeout = 5000");
        const user = rw.prepare("SELECT id FROM users WHERE email = ?").get(email);
        const now = Date.now();
        rw.prepare("INSERT INTO sessions (id, user_id, created_at, expires_at, ip, user_agent) VALUES (?, ?, ?, ?, ?, ?)").run(
          createHash("sha256").update(token).digest("hex"),
          user.id,
          now,
          now + 86_400_000,
          "127.0.0.1",
          "telltale-bench",
        );
        rw.close();
        return token;
      },
      async close() {
        queue?.close();
        db.close();
      },
    };
  }
  const url = target.env.DATABASE_URL;
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  return {
    async scalar(sql) {
      const { rows } = await client.query(sql);
      return Number(Object.values(rows[0] ?? {})[0] ?? 0);
    },
    async bytes() {
      const { rows } = await client.query("SELECT pg_database_size(current_database()) AS n");
      return Number(rows[0].n);
    },
    async session(email) {
      const token = randomBytes(32).toString("base64url");
      const { rows } = await client.query("SELECT id FROM users WHERE email = $1", [email]);
      const now = Date.now();
      await client.query("INSERT INTO sessions (id, user_id, created_at, expires_at, ip, user_agent) VALUES ($1, $2, $3, $4, $5, $6)", [
        createHash("sha256").update(token).digest("hex"),
        rows[0].id,
        now,
        now + 86_400_000,
        "127.0.0.1",
        "telltale-bench",
      ]);
      return token;
    },
    /**
     * Envelopes accepted and not yet digested. The digest deletes each batch it stores, so the
     * oldest and newest ids left bound the backlog (two index lookups; a sequence may skip ids,
     * so it is an upper bound, and exactly 0 when the queue is empty). A count(*) would scan
     * the backlog on every poll, in the database's CPU the drain needs.
     */
    async queued() {
      const { rows } = await client.query("SELECT coalesce(max(id) - min(id) + 1, 0) AS n FROM ingest_queue");
      return Number(rows[0].n);
    },
    async close() {
      await client.end();
    },
  };
}

/** Stored rows that count as events: errors and transactions. */
export async function storedEvents(db) {
  return (await db.scalar("SELECT count(*) FROM events")) + (await db.scalar("SELECT count(*) FROM transactions"));
}

/**
 * Waits until the ingest queue is empty (everything accepted is digested and visible),
 * polling every 100 ms, at most `timeoutMs`. Returns when it emptied (performance.now()).
 */
export async function waitDrained(db, { timeoutMs, pid }) {
  const deadline = performance.now() + timeoutMs;
  let lastLog = performance.now();
  for (;;) {
    const queued = await db.queued();
    const now = performance.now();
    if (queued === 0) return { drainedAt: now, queued: 0 };
    if (now > deadline) return { drainedAt: null, queued };
    if (now - lastLog > 5000) {
      const s = procStats(pid);
      log(`  digest: ${queued} envelopes still queued (server RSS ${s ? s.rssMb.toFixed(0) : "?"} MB)`);
      lastLog = now;
    }
    await sleep(100);
  }
}
