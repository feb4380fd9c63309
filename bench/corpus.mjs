// The benchmark corpus: envelopes made by the real SDKs (@sentry/node in a child process,
// @sentry/browser in headless Chromium, Debian's sentry-python), captured once and cached
// under .bench/corpus/ (git-ignored). Each entry keeps the SDK's own bytes (decompressed),
// its request path and headers, and whether the SDK gzips it; bench/template.mjs turns
// entries into requests for a given target.
//   node bench/corpus.mjs [--rebuild]   builds (or shows) the cache
import { createServer } from "node:http";
import { existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import process from "node:process";
import { gunzipSync } from "node:zlib";
import { pyModule, PY_FAILURES, spanCount, templateSpec, errorTargetBytes } from "./corpus/app-code.mjs";
import { PLACEHOLDER_KEY, PLACEHOLDER_PROJECT } from "./corpus/placeholder.mjs";
import { CACHE, log, prng, ROOT, run } from "./util.mjs";
import { Buffer } from "node:buffer";

/** Bump when the generators change: a cached corpus of another version is rebuilt. */
export const CORPUS_VERSION = 1;
const DIR = join(CACHE, "corpus", `v${CORPUS_VERSION}`);
const FILE = join(DIR, "corpus.jsonl");
const META = join(DIR, "meta.json");

/** Distinct error templates per SDK: each one is one issue (two captures each). */
const TEMPLATES = { node: 160, browser: 120, python: 80 };
/** Sessions kept per SDK (the browser SDK sends one per error, far more than the mix needs). */
const MAX_SESSIONS = 40;

/** Reads an envelope (or a /store/ body) into its items, honouring `length` where given. */
export function envelopeItems(body, endpoint) {
  if (endpoint === "store") return { header: {}, items: [{ header: { type: "event" }, payload: body }] };
  let pos = body.indexOf(10);
  const header = JSON.parse(body.subarray(0, pos < 0 ? body.length : pos).toString());
  const items = [];
  while (pos >= 0 && pos < body.length - 1) {
    const start = pos + 1;
    const end = body.indexOf(10, start);
    const itemHeader = JSON.parse(body.subarray(start, end < 0 ? body.length : end).toString());
    const from = end < 0 ? body.length : end + 1;
    let to;
    if (typeof itemHeader.length === "number") to = from + itemHeader.length;
    else {
      const nl = body.indexOf(10, from);
      to = nl < 0 ? body.length : nl;
    }
    items.push({ header: itemHeader, payload: body.subarray(from, to) });
    pos = to < body.length && body[to] === 10 ? to : to < body.length ? body.indexOf(10, to) : -1;
  }
  return { header, items };
}

/** What an entry holds: its kind for the load mix and the rows it should produce once digested. */
export function classify(body, endpoint) {
  const { items } = envelopeItems(body, endpoint);
  const counts = { errors: 0, transactions: 0, spans: 0, sessions: 0, clientReports: 0 };
  for (const item of items) {
    const type = item.header.type;
    if (type === "event") counts.errors++;
    else if (type === "transaction") {
      counts.transactions++;
      counts.spans += (JSON.parse(item.payload.toString()).spans?.length ?? 0) + 1;
    } else if (type === "span") {
      const spans = JSON.parse(item.payload.toString()).items ?? [];
      counts.spans += spans.length;
      counts.transactions += spans.filter((s) => s.is_segment === true).length;
    } else if (type === "session" || type === "sessions") counts.sessions++;
    else if (type === "client_report") counts.clientReports++;
  }
  const kind = counts.errors
    ? "error"
    : counts.transactions || counts.spans
      ? "transaction"
      : counts.sessions
        ? "session"
        : counts.clientReports
          ? "client_report"
          : "other";
  return { kind, counts };
}

/** A capture server for sentry-python: records each request as the SDK sent it. */
async function captureServer(captured) {
  const server = createServer((req, res) => {
    const chunks = [];
    req.on("data", (c) => chunks.push(c));
    req.on("end", () => {
      const raw = Buffer.concat(chunks);
      const encoding = req.headers["content-encoding"] ?? null;
      const headers = {};
      for (const name of ["content-type", "x-sentry-auth", "user-agent"]) if (req.headers[name]) headers[name] = req.headers[name];
      captured.push({
        sdk: "python",
        path: req.url,
        headers,
        chunked: false,
        encoding,
        body: (encoding === "gzip" ? gunzipSync(raw) : raw).toString("base64"),
      });
      res.writeHead(200, { "content-type": "application/json" });
      res.end("{}");
    });
  });
  await new Promise((r) => server.listen(0, "127.0.0.1", r));
  return server;
}

async function capturePython(dir) {
  const r = prng(3);
  const src = join(dir, "app", "python");
  // Two rounds over all templates: sentry-python's dedupe drops an exception equal to the last one.
  const rounds = [[], []];
  for (let k = 0; k < TEMPLATES.python; k++) {
    const spec = templateSpec(k, PY_FAILURES, 3);
    const file = join(src, spec.area.replace("/", "_"), `${spec.module.replaceAll("-", "_")}.py`);
    mkdirSync(join(file, ".."), { recursive: true });
    writeFileSync(file, pyModule(spec));
    for (const [round, v] of [0, 1 + (k % 3)].entries()) {
      const target = errorTargetBytes(r);
      rounds[round].push({
        file,
        name: `bench_${spec.module.replaceAll("-", "_")}`,
        id: 1000 + k * 31 + v,
        region: ["eu", "us", "ap"][v % 3],
        quantity: 3 + v,
        target,
        breadcrumbs: Math.max(0, Math.min(100, Math.round((target - 3000) / 250))),
      });
    }
  }
  const errors = rounds.flat();
  const transactions = Array.from({ length: 20 }, (_, i) => (i === 0 ? 1000 : spanCount(r)));
  const manifest = join(dir, "python-manifest.json");
  writeFileSync(manifest, JSON.stringify({ errors, transactions }));
  const captured = [];
  const server = await captureServer(captured);
  try {
    const dsn = `http://${PLACEHOLDER_KEY}@127.0.0.1:${server.address().port}/${PLACEHOLDER_PROJECT}`;
    await run("/usr/bin/python3", [join(ROOT, "bench/corpus/python_sdk.py"), dsn, manifest], { timeoutMs: 180_000 });
  } finally {
    server.close();
  }
  return captured;
}

async function captureNode(dir) {
  const out = join(dir, "node.jsonl");
  await run(process.execPath, [join(ROOT, "bench/corpus/node-sdk.mjs"), out, join(dir, "app", "node"), String(TEMPLATES.node), "1"], {
    timeoutMs: 180_000,
  });
  return readJsonl(out);
}

async function captureBrowser(dir) {
  const out = join(dir, "browser.jsonl");
  await run(process.execPath, [join(ROOT, "bench/corpus/browser-sdk.mjs"), out, String(TEMPLATES.browser), "2"], { timeoutMs: 300_000 });
  return readJsonl(out);
}

const readJsonl = (file) =>
  readFileSync(file, "utf8")
    .split("\n")
    .filter(Boolean)
    .map((l) => JSON.parse(l));

/** Captures all three SDKs (in parallel) and writes the cache. */
export async function buildCorpus() {
  rmSync(DIR, { recursive: true, force: true });
  mkdirSync(DIR, { recursive: true });
  const t0 = Date.now();
  log("corpus: capturing envelopes from @sentry/node, @sentry/browser (Chromium) and sentry-python…");
  const [node, browser, python] = await Promise.all([captureNode(DIR), captureBrowser(DIR), capturePython(DIR)]);
  const entries = [];
  for (const list of [node, browser, python]) {
    let sessions = 0;
    for (const raw of list) {
      const body = Buffer.from(raw.body, "base64");
      const endpoint = raw.path.includes("/store/") ? "store" : "envelope";
      const { kind, counts } = classify(body, endpoint);
      if (kind === "session" && ++sessions > MAX_SESSIONS) continue;
      entries.push({ ...raw, endpoint, kind, counts, bytes: body.length });
    }
  }
  writeFileSync(FILE, entries.map((e) => JSON.stringify(e)).join("\n") + "\n");
  const meta = {
    version: CORPUS_VERSION,
    createdAt: new Date().toISOString(),
    seconds: (Date.now() - t0) / 1000,
    summary: summarize(entries),
  };
  writeFileSync(META, JSON.stringify(meta, null, 2));
  log(`corpus: ${entries.length} envelopes in ${meta.seconds.toFixed(1)} s → ${FILE}`);
  return entries;
}

export function summarize(entries) {
  const by = {};
  for (const e of entries) {
    const key = `${e.sdk}/${e.kind}`;
    const s = (by[key] ??= { n: 0, bytes: 0, min: Infinity, max: 0, gzip: 0 });
    s.n++;
    s.bytes += e.bytes;
    s.min = Math.min(s.min, e.bytes);
    s.max = Math.max(s.max, e.bytes);
    if (e.encoding === "gzip") s.gzip++;
  }
  return Object.fromEntries(
    Object.entries(by).map(([k, s]) => [
      k,
      { count: s.n, avgBytes: Math.round(s.bytes / s.n), minBytes: s.min, maxBytes: s.max, gzip: s.gzip },
    ]),
  );
}

/** The cached corpus, built first when missing or of another version. */
export async function loadCorpus({ rebuild = false } = {}) {
  if (!rebuild && existsSync(FILE) && existsSync(META)) {
    const meta = JSON.parse(readFileSync(META, "utf8"));
    if (meta.version === CORPUS_VERSION) return readJsonl(FILE).map((e) => ({ ...e, body: Buffer.from(e.body, "base64") }));
  }
  return (await buildCorpus()).map((e) => ({ ...e, body: Buffer.from(e.body, "base64") }));
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const entries = await loadCorpus({ rebuild: process.argv.includes("--rebuild") });
  process.stdout.write(JSON.stringify(summarize(entries), null, 2) + "\n");
}
