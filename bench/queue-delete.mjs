// The queue file's write path on its own (SQLite): groups of 64 envelope-sized rows inserted,
// each group deleting the rows a group before it had written (the digest's mark), as the
// request path does (src/core/ingest/queue-writer.ts), with `secure_delete` off and on in
// alternating runs. Prints CPU µs per row and bytes written to the file and its WAL.
//   node bench/queue-delete.mjs [--pairs 4] [--rows 20000]
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { Buffer } from "node:buffer";
import { randomBytes } from "node:crypto";
import process from "node:process";
import SQLite from "better-sqlite3";

const args = process.argv.slice(2);
const valueOf = (flag, fallback) => {
  const i = args.indexOf(flag);
  return i >= 0 && args[i + 1] !== undefined ? Number(args[i + 1]) : fallback;
};
const pairs = valueOf("--pairs", 4);
const rows = valueOf("--rows", 20000);
const GROUP = 64;
/** Rows the idle drain deletes at the end of a run (17 MiB). */
const DRAIN_ROWS = 1000;
// ~17 KiB, the bench mix's average envelope; half random so it does not compress away.
const body = Buffer.concat([randomBytes(8 * 1024), Buffer.alloc(9 * 1024, 0x61)]);

/** Bytes this process made the kernel write (Linux). */
function writeBytes() {
  const line = (/^write_bytes: (\d+)$/m.exec(readFileSync("/proc/self/io", "utf8")) ?? [])[1];
  return Number(line ?? 0);
}

function run(secure) {
  const dir = mkdtempSync(join(tmpdir(), "telltale-qdel-"));
  const db = new SQLite(join(dir, "q.sqlite"));
  db.pragma("page_size = 16384");
  db.pragma("auto_vacuum = INCREMENTAL");
  db.pragma("journal_mode = WAL");
  db.pragma("synchronous = NORMAL");
  db.pragma(`secure_delete = ${secure ? "ON" : "OFF"}`);
  db.exec(
    "CREATE TABLE ingest_queue (id INTEGER PRIMARY KEY AUTOINCREMENT, project_id INTEGER, key_id INTEGER, endpoint TEXT, received_at INTEGER, body BLOB)",
  );
  const insert = db.prepare("INSERT INTO ingest_queue (project_id, key_id, endpoint, received_at, body) VALUES (1, 1, 'envelope', ?, ?)");
  const del = db.prepare("DELETE FROM ingest_queue WHERE id <= ?");
  const group = db.transaction((upTo) => {
    if (upTo > 0) del.run(upTo);
    for (let i = 0; i < GROUP; i++) insert.run(Date.now(), body);
  });
  const io0 = writeBytes();
  const cpu0 = process.cpuUsage();
  let written = 0;
  for (let n = 0; n < rows; n += GROUP) {
    group(Math.max(0, written - GROUP));
    written += GROUP;
  }
  const cpu = process.cpuUsage(cpu0);
  const io = writeBytes() - io0;
  // Then the queue drains with no insert after it: a backlog digested, the path idle.
  for (let n = 0; n < DRAIN_ROWS; n++) insert.run(Date.now(), body);
  db.pragma("wal_checkpoint(TRUNCATE)");
  const drain0 = writeBytes();
  const drainCpu0 = process.cpuUsage();
  del.run(Number.MAX_SAFE_INTEGER);
  db.pragma("wal_checkpoint(TRUNCATE)");
  const drainCpu = process.cpuUsage(drainCpu0);
  const drained = writeBytes() - drain0;
  db.close();
  rmSync(dir, { recursive: true, force: true });
  return {
    usPerRow: (cpu.user + cpu.system) / written,
    mbWritten: io / 1e6,
    drainMs: (drainCpu.user + drainCpu.system) / 1000,
    drainMb: drained / 1e6,
  };
}

for (let p = 0; p < pairs; p++) {
  const off = run(false);
  const on = run(true);
  const show = (r) =>
    `${r.usPerRow.toFixed(1)} µs/row, ${r.mbWritten.toFixed(0)} MB written; drain ${r.drainMs.toFixed(0)} ms CPU, ${r.drainMb.toFixed(0)} MB written`;
  process.stdout.write(`pair ${p + 1}: off ${show(off)} | on ${show(on)}\n`);
}
