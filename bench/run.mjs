// `npm run bench` — ingest and read benchmarks of Telltale beside a floor server, on loopback.
//   npm run bench                   full run (≥ 30 s per phase, 1 M events for the read path);
//                                   replaces the results section of docs/benchmarks.md
//   npm run bench -- --quick        ≤ 1 minute smoke run; prints, and writes .bench/quick-results.md
// Options: --duration S  --connections N  --read-events N  --read-issues N  --no-postgres
//          --no-read  --profile (server under --cpu-prof; hot functions printed)  --rebuild-corpus
//          --no-sqlite (PostgreSQL's ingest only; never writes the doc)
//          --small (errors only, 60 % of 2–3 KB: per-request costs; never writes the doc)
//          --no-doc (full run without touching docs/benchmarks.md)
//          --server-root DIR (measure the build of another checkout, e.g. to compare a change)
//          --no-build (use dist/ and .next/ as they are)
//          --server-env NAME=VALUE (repeatable: set in the server's environment only, e.g. to try
//          NODE_OPTIONS or MALLOC_ARENA_MAX without the load generator getting it too)
import { mkdirSync, writeFileSync } from "node:fs";
import { loadavg } from "node:os";
import { join } from "node:path";
import process from "node:process";
import pg from "pg";
import { loadCorpus } from "./corpus.mjs";
import { counter, measureIngest } from "./ingest.mjs";
import { summarizeProfiles } from "./profile.mjs";
import { bulkLoad, measureEndpoints } from "./read.mjs";
import { machine, markdown, text, writeDoc } from "./report.mjs";
import {
  createTarget,
  openDb,
  PG_ADMIN_URL,
  serverRoot,
  startEnv,
  startFlags,
  startFloor,
  startTelltale,
  storedEvents,
} from "./servers.mjs";
import { build as buildRequest, idSource, MIX, prepare, schedule, scheduleSmall, SMALL_MIX } from "./template.mjs";
import { CACHE, log, procStats, prng, ROOT, run, sleep } from "./util.mjs";

const argv = process.argv.slice(2);
const has = (flag) => argv.includes(flag);
const num = (flag, fallback) => {
  const i = argv.indexOf(flag);
  return i >= 0 && argv[i + 1] !== undefined ? Number(argv[i + 1]) : fallback;
};
const QUICK = has("--quick");
// --quick keeps every phase but shortens it: the point is that the harness runs end to end.
const settings = {
  connections: num("--connections", 64),
  durationS: num("--duration", QUICK ? 2 : 30),
  warmupS: QUICK ? 0.5 : 3,
  drainMs: QUICK ? 15_000 : 15 * 60_000,
  readEvents: num("--read-events", QUICK ? 1_000 : 1_000_000),
  readIssues: num("--read-issues", QUICK ? 500 : 10_000),
  readMaxMs: QUICK ? 15_000 : 25 * 60_000,
  readDrainMs: QUICK ? 15_000 : 20 * 60_000,
  readRepeat: QUICK ? 5 : 100,
  idleMs: QUICK ? 500 : 3_000,
};
const PROFILE = has("--profile");
const SMALL = has("--small");
/** The order templates are sent in: the default mix, or small errors (--small). */
const orderOf = (corpus, templates, rand) => (SMALL ? scheduleSmall(corpus, rand) : schedule(templates, rand));
if (argv.includes("--server-root")) process.env.BENCH_SERVER_ROOT = argv[argv.indexOf("--server-root") + 1];
const serverEnv = argv.flatMap((a, i) => (a === "--server-env" && argv[i + 1]?.includes("=") ? [argv[i + 1]] : []));
if (serverEnv.length > 0)
  process.env.BENCH_SERVER_ENV = JSON.stringify(
    Object.fromEntries(serverEnv.map((kv) => [kv.slice(0, kv.indexOf("=")), kv.slice(kv.indexOf("=") + 1)])),
  );

async function postgresReachable() {
  const client = new pg.Client({ connectionString: PG_ADMIN_URL, connectionTimeoutMillis: 3000 });
  try {
    await client.connect();
    await client.end();
    return true;
  } catch {
    return false;
  }
}

/** What the mix sends on average: decompressed bytes and bytes on the wire. */
function mixStats(templates, order, ids) {
  let bytes = 0;
  let wire = 0;
  const sample = Math.min(order.length, 5000);
  for (let n = 0; n < sample; n++) {
    const t = templates[order[n]];
    bytes += t.bytes;
    wire += buildRequest(t, n, ids).length;
  }
  return { avgBytes: bytes / sample, avgWireBytes: wire / sample };
}

/** Server log lines at warn or error level, summarized for the notes. */
function logNotes(name, logs, results) {
  const lines = logs.split("\n").filter((l) => / (warn|error) /.test(l));
  if (!lines.length) return;
  const kinds = new Map();
  for (const l of lines) {
    const key = l.replace(/^\S+ /, "").replace(/ .*$/, "") + " " + (/ (?:warn|error)\s+([^=]+?)(?: \w+=|$)/.exec(l)?.[1] ?? "");
    kinds.set(key, (kinds.get(key) ?? 0) + 1);
  }
  results.notes.push(
    `${name} logged ${lines.length} warn/error lines: ${[...kinds].map(([k, c]) => `${c}× "${k.trim()}"`).join(", ")}; first: \`${lines[0].slice(0, 300)}\``,
  );
}

async function ingestTelltale(target, corpus, results) {
  const dialect = target.dialect;
  const profDir = PROFILE ? join(CACHE, "prof", `${dialect}-${Date.now()}`) : null;
  let server = null;
  let db = null;
  try {
    server = await startTelltale(target, { cpuProfDir: profDir });
    log(
      `telltale on ${dialect}: ready in ${(server.startup.firstLoginMs / 1000).toFixed(2)} s (ingest after ${(server.startup.listeningMs / 1000).toFixed(2)} s)`,
    );
    await sleep(settings.idleMs);
    const idleRssMb = procStats(server.pid)?.rssMb ?? NaN;
    db = await openDb(target);
    const templates = corpus.map((e) =>
      prepare(e, { host: "127.0.0.1", port: server.port, projectId: target.projectId, publicKey: target.publicKey }),
    );
    const order = orderOf(corpus, templates, prng(7).next);
    const measured = await measureIngest(server, {
      templates,
      order,
      ids: idSource(),
      seq: counter(),
      db,
      postgres: dialect === "postgres",
      connections: settings.connections,
      durationMs: settings.durationS * 1000,
      warmupMs: settings.warmupS * 1000,
      drainMs: settings.drainMs,
    });
    const events = await storedEvents(db);
    const bytes = await db.bytes();
    const queueBytes = (await db.queueBytes?.()) ?? 0;
    results[dialect === "sqlite" ? "sqlite" : "postgres"] = {
      startup: server.startup,
      idleRssMb,
      ...measured,
      db: { bytes, queueBytes, events },
    };
  } finally {
    await db?.close();
    await server?.stop();
    if (server) logNotes(`Telltale on ${dialect}`, server.logs(), results);
    await target.destroy();
  }
  if (profDir) results.profiles[dialect] = summarizeProfiles(profDir);
}

async function readPath(target, corpus, results) {
  let server = null;
  try {
    server = await startTelltale(target);
    const bulk = await bulkLoad({
      server,
      target,
      corpus,
      ids: idSource(),
      seq: counter(),
      events: settings.readEvents,
      issues: settings.readIssues,
      connections: 32,
      maxMs: settings.readMaxMs,
      drainMs: settings.readDrainMs,
    });
    log(`read path: ${bulk.storedEvents} events stored, ${bulk.groupedEvents} grouped, ${bulk.issues} issues`);
    const endpoints = await measureEndpoints({ server, target, repeat: settings.readRepeat });
    results.read = { bulk, endpoints };
    if (bulk.issues === 0)
      results.notes.push(
        "The read path found no issues: the digest step stored the events without grouping them (grouping is not wired into digest at this commit), so the issue pages list nothing and the issue page could not be opened.",
      );
  } finally {
    await server?.stop();
    if (server) logNotes("Telltale (read path)", server.logs(), results);
    await target.destroy();
  }
}

async function main() {
  const t0 = Date.now();
  const results = { quick: QUICK, machine: machine(serverRoot()), settings, notes: [], profiles: {}, loadAverage: loadavg() };
  const asStarted = [...Object.entries(startEnv()).map(([k, v]) => `${k}=${v}`), "node", ...startFlags()].join(" ");
  if (asStarted !== "node") results.notes.push(`The server ran as \`${asStarted}\`, as \`npm start\` runs it.`);
  if (serverEnv.length > 0) results.notes.push(`The server ran with ${serverEnv.map((kv) => `\`${kv}\``).join(", ")} in its environment.`);
  if (!has("--no-build")) {
    log(`building the server if needed…`);
    await run(process.execPath, [join(serverRoot(), "scripts/build.mjs"), "--if-needed"], { timeoutMs: 15 * 60_000, cwd: serverRoot() });
  }
  const corpus = await loadCorpus({ rebuild: has("--rebuild-corpus") });

  // Every data set is set up first (through the CLI, concurrently), so that no set-up runs
  // while another server is measured.
  const pgState = has("--no-postgres")
    ? "--no-postgres"
    : (await postgresReachable())
      ? "ok"
      : `PostgreSQL not reachable at ${PG_ADMIN_URL}`;
  log("setting up users, organizations, projects and tokens through the CLI…");
  const targets = await Promise.allSettled([
    has("--no-sqlite") ? null : createTarget("sqlite", "ingest-sqlite"),
    pgState === "ok" ? createTarget("postgres", "ingest-postgres") : null,
    has("--no-read") ? null : createTarget("sqlite", "read"),
  ]);
  const [sqliteTarget, pgTarget, readTarget] = targets.map((t) => (t.status === "fulfilled" ? t.value : null));
  try {
    const failed = targets.find((t) => t.status === "rejected");
    if (failed) throw failed.reason;

    // The floor first: the same corpus, mix, connections and durations as Telltale.
    const floor = await startFloor();
    try {
      const templates = corpus.map((e) =>
        prepare(e, { host: "127.0.0.1", port: floor.port, projectId: 1, publicKey: "0123456789abcdef0123456789abcdef" }),
      );
      const order = orderOf(corpus, templates, prng(7).next);
      const ids = idSource();
      const mix = mixStats(templates, order, ids);
      results.corpus = {
        entries: corpus.length,
        ...mix,
        mix: SMALL
          ? `errors only: ${Math.round(SMALL_MIX.small * 100)} % of 2–3 KB, the rest up to 30 KB`
          : Object.entries(MIX)
              .map(([k, v]) => `${Math.round(v * 100)} % ${k.replace("_", " ")}s`)
              .join(", "),
      };
      results.floor = await measureIngest(floor, {
        templates,
        order,
        ids,
        seq: counter(),
        connections: settings.connections,
        durationMs: settings.durationS * 1000,
        warmupMs: settings.warmupS * 1000,
      });
    } finally {
      await floor.stop();
    }

    if (sqliteTarget) await ingestTelltale(sqliteTarget, corpus, results);
    else results.sqlite = { skipped: "--no-sqlite" };
    if (pgTarget) await ingestTelltale(pgTarget, corpus, results);
    else {
      results.postgres = { skipped: pgState };
      if (pgState !== "--no-postgres") results.notes.push(pgState);
    }
    if (readTarget) await readPath(readTarget, corpus, results);
    else results.read = { skipped: "skipped (--no-read)" };
  } finally {
    // Data sets are removed (and PostgreSQL databases dropped) even when a phase failed.
    for (const t of [sqliteTarget, pgTarget, readTarget]) await t?.destroy().catch(() => {});
  }

  const busy = [
    ["floor", results.floor],
    ["Telltale on SQLite", results.sqlite],
    ["Telltale on PostgreSQL", results.postgres],
  ]
    .filter(([, r]) => r?.full)
    .map(([name, r]) => [name, Math.max(r.full.otherCores, r.half.otherCores)])
    .filter(([, cores]) => cores > 0.2);
  if (busy.length)
    results.notes.push(
      `Other processes on the machine used CPU during the measurements (${busy.map(([n, c]) => `${c.toFixed(1)} cores beside ${n}`).join(", ")}): those figures are noisy.`,
    );
  if (results.loadAverage[0] > 0.5)
    results.notes.push(`Load average at the start: ${results.loadAverage.map((l) => l.toFixed(2)).join(" / ")}.`);
  results.seconds = (Date.now() - t0) / 1000;
  const out = text(results);
  process.stdout.write("\n" + out);
  for (const [dialect, top] of Object.entries(results.profiles))
    process.stdout.write(`\nhot functions (self time), telltale on ${dialect}:\n${top}\n`);
  mkdirSync(CACHE, { recursive: true });
  // Only a full run that writes the doc replaces results-full.json; the doc's figures come from it.
  const kind = QUICK ? "quick" : has("--no-doc") || has("--no-sqlite") || SMALL ? "partial" : "full";
  writeFileSync(join(CACHE, `results-${kind}.json`), JSON.stringify(results, null, 2));
  if (QUICK || has("--no-doc") || has("--no-sqlite") || SMALL) {
    writeFileSync(join(CACHE, "quick-results.md"), markdown(results));
    log(`done in ${results.seconds.toFixed(0)} s; results in .bench/ (docs/benchmarks.md untouched)`);
  } else {
    writeDoc(join(ROOT, "docs/benchmarks.md"), markdown(results));
    log(`done in ${results.seconds.toFixed(0)} s; docs/benchmarks.md updated`);
  }
}

await main();
