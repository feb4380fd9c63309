// Results → a plain-text table for the terminal and a Markdown section for docs/benchmarks.md.
import { execFileSync } from "node:child_process";
import { existsSync, readFileSync, writeFileSync } from "node:fs";
import { cpus, totalmem } from "node:os";
import process from "node:process";
import { ROOT } from "./util.mjs";

export function machine(root = ROOT) {
  let model = cpus()[0]?.model ?? "unknown";
  try {
    model = /^model name\s*:\s*(.+)$/m.exec(readFileSync("/proc/cpuinfo", "utf8"))?.[1] ?? model;
  } catch {
    // not Linux
  }
  let commit = "unknown";
  let dirty = false;
  try {
    commit = execFileSync("git", ["rev-parse", "--short", "HEAD"], { cwd: root }).toString().trim();
    dirty = execFileSync("git", ["status", "--porcelain", "--", "src", "app"], { cwd: root }).toString().trim() !== "";
  } catch {
    // not a checkout
  }
  let nproc = cpus().length;
  try {
    nproc = Number(execFileSync("nproc").toString().trim());
  } catch {
    // keep os.cpus()
  }
  return {
    nproc,
    cpu: model,
    ramGb: totalmem() / 2 ** 30,
    node: process.version,
    commit,
    dirty,
    date: new Date().toISOString().replace(/\.\d+Z$/, "Z"),
  };
}

const n0 = (x) => (Number.isFinite(x) ? Math.round(x).toLocaleString("en-US") : "–");
const n1 = (x) => (Number.isFinite(x) ? x.toFixed(1) : "–");
const pct = (x) => (Number.isFinite(x) ? `${Math.round(x * 100)} %` : "–");
const mb = (x) => (Number.isFinite(x) ? `${Math.round(x)} MB` : "–");
const sec = (ms) => (Number.isFinite(ms) ? `${(ms / 1000).toFixed(2)} s` : "–");

function errorsOf(phase) {
  if (!phase) return "–";
  const bad = Object.entries(phase.statuses).filter(([s]) => !s.startsWith("2"));
  const net = Object.entries(phase.netErrors ?? {});
  const all = [...bad.map(([s, c]) => `${c}×${s}`), ...net.map(([e, c]) => `${c}×${e}`)];
  return all.length ? all.join(", ") : "none";
}

/** The rows of the ingest table: [label, floor, sqlite, ratio, postgres, ratio]. */
function ingestRows(r) {
  const f = r.floor;
  const cols = [r.sqlite, r.postgres].map((t) => (t && !t.skipped ? t : null));
  const ratio = (get, t) => (t && f ? pct(get(t) / get(f)) : "");
  const row = (label, get, fmt, withRatio = false) => [
    label,
    f ? fmt(get(f)) : "–",
    ...cols.flatMap((t) => [t ? fmt(get(t)) : "–", withRatio ? ratio(get, t) : ""]),
  ];
  const dig = (get) => (t) => (t.full.digest ? get(t.full.digest) : NaN);
  return [
    row("accepted envelopes/s (full load)", (t) => t.full.requestsPerSecond, n0, true),
    row("  events in them/s (errors + transactions)", (t) => t.full.eventsPerSecond, n0, true),
    [
      "accepted and digested envelopes/s",
      "–",
      ...cols.flatMap((t) => [
        t ? n0(dig((d) => d.requestsPerSecond)(t)) : "–",
        t && f ? pct(dig((d) => d.requestsPerSecond)(t) / f.full.requestsPerSecond) : "",
      ]),
    ],
    ["  digest backlog after the load", "–", ...cols.flatMap((t) => [t?.full.digest ? `${n1(t.full.digest.backlogSeconds)} s` : "–", ""])],
    [
      "  visible rows / expected",
      "–",
      ...cols.flatMap((t) => [t?.full.digest ? `${n0(t.full.digest.visibleEvents)} / ${n0(t.full.digest.expectedEvents)}` : "–", ""]),
    ],
    row(
      "p50 / p99 latency, full load (ms)",
      (t) => [t.full.p50, t.full.p99],
      (v) => `${n1(v[0])} / ${n1(v[1])}`,
    ),
    row("half load: envelopes/s", (t) => t.half.requestsPerSecond, n0),
    row(
      "p50 / p99 latency, half load (ms)",
      (t) => [t.half.p50, t.half.p99],
      (v) => `${n1(v[0])} / ${n1(v[1])}`,
    ),
    row("server CPU, full load (cores)", (t) => t.full.cpuCores, n1),
    ["  PostgreSQL's CPU meanwhile (cores)", "–", "–", "", cols[1] ? n1(cols[1].full.postgresCores) : "–", ""],
    row("  generator's CPU meanwhile (cores)", (t) => t.full.generatorCores, n1),
    row("  other processes' CPU meanwhile (cores)", (t) => t.full.otherCores, n1),
    ["server CPU, load + digest (cores)", "–", ...cols.flatMap((t) => [t?.full.digest ? n1(t.full.digest.cpuCores) : "–", ""])],
    row("RSS under load (max sampled)", (t) => Math.max(t.full.maxRssMb, t.half.maxRssMb, t.full.digest?.maxRssMb ?? 0), mb),
    row("peak RSS (VmHWM)", (t) => t.hwmMb, mb),
    row("errors (full load)", (t) => t.full, errorsOf),
  ];
}

function footprintRows(r) {
  const cols = [r.sqlite, r.postgres].map((t) => (t && !t.skipped ? t : null));
  const row = (label, get) => [label, ...cols.map((t) => (t ? get(t) : "–"))];
  return [
    row("spawn → ingest listening", (t) => sec(t.startup.listeningMs)),
    row('spawn → "web UI ready"', (t) => sec(t.startup.uiReadyMs)),
    row("spawn → first 200 on /login", (t) => sec(t.startup.firstLoginMs)),
    row("idle RSS", (t) => mb(t.idleRssMb)),
    row("database size after the run", (t) => mb(t.db.bytes / 2 ** 20)),
    row("stored events (errors + transactions)", (t) => n0(t.db.events)),
    row("database size per million events", (t) => (t.db.events ? `${n1(t.db.bytes / t.db.events / 1e3)} GB` : "–")),
    row("queue file right after the drain (transient)", (t) => (t.db.queueBytes ? mb(t.db.queueBytes / 2 ** 20) : "–")),
  ];
}

/** The targets of issues 5 and 11, each met or missed (or not measured). */
export function targets(r) {
  const s = r.sqlite && !r.sqlite.skipped ? r.sqlite : null;
  const f = r.floor;
  const ep = (name) => r.read?.endpoints?.find((e) => e.name === name);
  const loadedM = r.read?.bulk ? r.read.bulk.storedEvents / 1e6 : 0;
  const readScale = r.read?.bulk ? `${n0(r.read.bulk.storedEvents)} events, ${n0(r.read.bulk.issues)} issues` : "";
  const readTarget = (name) => {
    const e = ep(name);
    if (!e || !e.available) return { value: e?.note ?? "not measured", met: null };
    const met = e.ok && e.p95 < 150;
    return { value: `p95 ${n1(e.p95)} ms (${readScale})`, met: loadedM >= 1 ? met : met ? "met at this scale" : false };
  };
  const rss = s ? Math.max(s.full.maxRssMb, s.half.maxRssMb, s.full.digest?.maxRssMb ?? 0, s.hwmMb) : NaN;
  const list = [
    {
      target: "accepted envelopes/s ≥ 70 % of the floor's (SQLite)",
      ...(s && f
        ? {
            value: pct(s.full.requestsPerSecond / f.full.requestsPerSecond),
            met: s.full.requestsPerSecond / f.full.requestsPerSecond >= 0.7,
          }
        : { value: "–", met: null }),
    },
    {
      target: "accepted and digested ≥ 50 % of the floor's (SQLite)",
      ...(s?.full.digest && f
        ? {
            value: pct(s.full.digest.requestsPerSecond / f.full.requestsPerSecond),
            met: s.full.digest.requestsPerSecond / f.full.requestsPerSecond >= 0.5,
          }
        : { value: "–", met: null }),
    },
    {
      target: "p99 accept latency < 50 ms at half load (SQLite)",
      ...(s ? { value: `${n1(s.half.p99)} ms`, met: s.half.p99 < 50 } : { value: "–", met: null }),
    },
    { target: "issue stream p95 < 150 ms with 1 M events", ...readTarget("issue stream page") },
    { target: "issue page p95 < 150 ms with 1 M events", ...readTarget("issue page") },
    {
      target: "stored size ≤ 5 GB per million error events (SQLite)",
      ...(r.read?.bulk?.bytes
        ? {
            value: `${n1(r.read.bulk.bytes / r.read.bulk.storedEvents / 1e3)} GB`,
            met: r.read.bulk.bytes / r.read.bulk.storedEvents / 1e3 <= 5,
          }
        : { value: "not measured", met: null }),
    },
    {
      target: "accepted envelopes/s ≥ 60 % of the floor's (PostgreSQL)",
      ...(r.postgres && !r.postgres.skipped && f
        ? {
            value: pct(r.postgres.full.requestsPerSecond / f.full.requestsPerSecond),
            met: r.postgres.full.requestsPerSecond / f.full.requestsPerSecond >= 0.6,
          }
        : { value: "–", met: null }),
    },
    { target: "RSS < 300 MB under load (SQLite)", ...(s ? { value: mb(rss), met: rss < 300 } : { value: "–", met: null }) },
    {
      target: "start to ready < 2 s (first 200 on /login)",
      ...(s ? { value: sec(s.startup.firstLoginMs), met: s.startup.firstLoginMs < 2000 } : { value: "–", met: null }),
    },
  ];
  return list;
}

const verdict = (met) => (met === true ? "met" : met === false ? "**missed**" : met === null ? "not measured" : met);

function readRows(r) {
  return (r.read?.endpoints ?? []).map((e) => [
    e.name,
    e.available ? `${n1(e.p50)} ms` : "–",
    e.available ? `${n1(e.p95)} ms` : "–",
    e.available ? (e.ok ? `200 (${n0(e.avgBytes / 1024)} KiB)` : JSON.stringify(e.statuses)) : e.note,
    e.path ?? "",
  ]);
}

function table(rows, header) {
  const all = [header, ...rows].map((r) => r.map(String));
  const widths = all[0].map((_, i) => Math.max(...all.map((r) => (r[i] ?? "").length)));
  return all
    .map(
      (r, j) =>
        r.map((c, i) => (i === 0 ? c.padEnd(widths[i]) : c.padStart(widths[i]))).join("  ") +
        (j === 0 ? "\n" + widths.map((w) => "-".repeat(w)).join("  ") : ""),
    )
    .join("\n");
}

function mdTable(rows, header) {
  const esc = (c) => String(c).replaceAll("|", "\\|");
  return [
    `| ${header.map(esc).join(" | ")} |`,
    `|${header.map((_, i) => (i === 0 ? "---" : "---:")).join("|")}|`,
    ...rows.map((r) => `| ${r.map(esc).join(" | ")} |`),
  ].join("\n");
}

const INGEST_HEADER = ["", "floor", "Telltale SQLite", "ratio", "Telltale PostgreSQL", "ratio"];

export function text(r) {
  const out = [];
  out.push(
    `Telltale benchmark${r.quick ? " (--quick)" : ""} — ${r.machine.date}, commit ${r.machine.commit}${r.machine.dirty ? " + uncommitted changes" : ""}, Node ${r.machine.node}`,
  );
  out.push(
    `${r.machine.nproc} cores (${r.machine.cpu}), ${n1(r.machine.ramGb)} GiB RAM; ${r.settings.connections} connections, ${r.settings.durationS} s per phase; corpus ${r.corpus.entries} envelopes, mix avg ${n1(r.corpus.avgBytes / 1024)} KiB decompressed / ${n1(r.corpus.avgWireBytes / 1024)} KiB on the wire`,
  );
  out.push("", table(ingestRows(r), INGEST_HEADER));
  out.push("", table(footprintRows(r), ["footprint", "SQLite", "PostgreSQL"]));
  if (r.read?.bulk)
    out.push(
      "",
      `read path: ${n0(r.read.bulk.storedEvents)} events (${n0(r.read.bulk.groupedEvents)} grouped), ${n0(r.read.bulk.issues)} issues`,
      table(readRows(r), ["endpoint", "p50", "p95", "answer", "path"]),
    );
  else if (r.read?.skipped) out.push("", `read path: ${r.read.skipped}`);
  out.push(
    "",
    table(
      targets(r).map((t) => [t.target, t.value, verdict(t.met).replaceAll("*", "")]),
      ["target (issue 5)", "measured", ""],
    ),
  );
  if (r.notes.length) out.push("", ...r.notes.map((n) => `note: ${n}`));
  return out.join("\n") + "\n";
}

export function markdown(r) {
  const m = r.machine;
  const out = [];
  out.push(`### ${r.quick ? "Smoke run (--quick)" : "Run"} of ${m.date.slice(0, 10)}`, "");
  out.push(`- Machine: ${m.nproc} cores, ${m.cpu}, ${n1(m.ramGb)} GiB RAM; Node ${m.node}`);
  out.push(`- Commit \`${m.commit}\`${m.dirty ? " with uncommitted changes in src/ or app/ (other work in progress)" : ""}, ${m.date}`);
  out.push(
    `- Load: one generator (bench/load.mjs, raw keep-alive sockets) on the same machine, ${r.settings.connections} connections, ${r.settings.durationS} s per phase after a ${r.settings.warmupS} s warm-up; half load is an open-loop sender at half the rate full load reached`,
  );
  out.push(
    `- Corpus: ${r.corpus.entries} envelopes from @sentry/node 11.1, @sentry/browser 11.1 (Chromium) and sentry-python 1.9; the mix sent averages ${n1(r.corpus.avgBytes / 1024)} KiB decompressed, ${n1(r.corpus.avgWireBytes / 1024)} KiB on the wire (${r.corpus.mix})`,
  );
  out.push("", "#### Ingest: Telltale beside the floor, same run, same generator", "", mdTable(ingestRows(r), INGEST_HEADER));
  out.push("", "#### Footprint", "", mdTable(footprintRows(r), ["", "SQLite", "PostgreSQL"]));
  out.push("", "#### Read path", "");
  if (r.read?.bulk) {
    const b = r.read.bulk;
    const size = b.bytes
      ? ` The SQLite database then held ${n1(b.bytes / 2 ** 30)} GiB: ${n1(b.bytes / b.storedEvents / 1e3)} GB per million error events${b.queueBytes ? ` (and the queue file, emptied by the digest, ${n1(b.queueBytes / 2 ** 30)} GiB until its pages are given back when idle)` : ""}.`
      : "";
    out.push(
      `Loaded through ingest and digest: ${n0(b.storedEvents)} events (${n0(b.groupedEvents)} grouped into issues), ${n0(b.issues)} issues; accepted in ${n0(b.acceptSeconds)} s, digest finished ${n0(b.digestWaitSeconds)} s later${b.drained ? "" : " (not drained within the limit)"}.${size} Server time of each request, sequential, ${r.read.endpoints.find((e) => e.n)?.n ?? "–"} requests each after two warm-ups:`,
      "",
    );
    out.push(mdTable(readRows(r), ["endpoint", "p50", "p95", "answer", "path"]));
  } else out.push(r.read?.skipped ?? "not measured");
  out.push(
    "",
    "#### Targets (issue 5)",
    "",
    mdTable(
      targets(r).map((t) => [t.target, t.value, verdict(t.met)]),
      ["target", "measured", ""],
    ),
  );
  if (r.notes.length) out.push("", ...r.notes.map((n) => `- ${n}`));
  return out.join("\n") + "\n";
}

const START = "<!-- bench:results:start -->";
const END = "<!-- bench:results:end -->";

/** Replaces the generated section of docs/benchmarks.md (between its markers). */
export function writeDoc(file, section) {
  const current = existsSync(file) ? readFileSync(file, "utf8") : `# Benchmarks\n\n${START}\n${END}\n`;
  const start = current.indexOf(START);
  const end = current.indexOf(END);
  const next =
    start >= 0 && end > start
      ? current.slice(0, start + START.length) + "\n" + section + current.slice(end)
      : current + `\n${START}\n${section}${END}\n`;
  writeFileSync(file, next);
}
