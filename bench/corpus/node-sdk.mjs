// Captures what @sentry/node sends: run as its own process by bench/corpus.mjs.
//   node bench/corpus/node-sdk.mjs OUT.jsonl SRC_DIR TEMPLATES SEED
// The SDK is initialised with a recording transport (createTransport + a makeRequest that
// keeps `request.body`); bodies over 32 KiB are marked gzip, as @sentry/node's own HTTP
// transport does (GZIP_THRESHOLD = 32 KiB). The errors come from generated modules under
// SRC_DIR, so frames have real files, functions and context lines.
import { mkdirSync, writeFileSync } from "node:fs";
import { dirname, join } from "node:path";
import process from "node:process";
import { pathToFileURL, URL } from "node:url";
import * as Sentry from "@sentry/node";
import { prng } from "../util.mjs";
import {
  breadcrumb,
  errorTargetBytes,
  HTTP_CALLS,
  jsInput,
  jsModule,
  JS_FAILURES,
  QUERIES,
  ROUTES,
  spanCount,
  stateChunk,
  templateSpec,
} from "./app-code.mjs";
import { PLACEHOLDER_KEY, PLACEHOLDER_PROJECT } from "./placeholder.mjs";
import { setTimeout } from "node:timers";
import { Buffer } from "node:buffer";

const [outFile, srcDir, templatesArg, seedArg] = process.argv.slice(2);
const TEMPLATES = Number(templatesArg ?? 160);
const SEED = Number(seedArg ?? 1);
const GZIP_THRESHOLD = 32 * 1024;
const r = prng(SEED);

const captured = [];
const targets = new Map();

function recordingTransport(options) {
  const url = new URL(options.url);
  return Sentry.createTransport(options, async (request) => {
    const body = typeof request.body === "string" ? Buffer.from(request.body) : Buffer.from(request.body);
    captured.push({
      sdk: "node",
      path: url.pathname + url.search,
      // @sentry/node posts without content-type, chunked, gzip above the threshold (docs/protocol.md#what-real-sdks-send).
      headers: {},
      chunked: true,
      encoding: request.body.length > GZIP_THRESHOLD ? "gzip" : null,
      body: body.toString("base64"),
    });
    return { statusCode: 200 };
  });
}

/** Tops an event up to its target size with application state, as `extra` data. */
function padTo(event, target) {
  let size = JSON.stringify(event).length;
  if (size >= target) return event;
  const state = [];
  let i = 0;
  while (size < target && i < 2000) {
    const chunk = stateChunk(r, i++);
    state.push(chunk);
    size += JSON.stringify(chunk).length + 1;
  }
  event.extra = { ...event.extra, cart_state: state };
  return event;
}

Sentry.init({
  dsn: `http://${PLACEHOLDER_KEY}@127.0.0.1:9/${PLACEHOLDER_PROJECT}`,
  release: "shop-api@4.12.0",
  environment: "production",
  serverName: "api-7f9c4d-xk2lp",
  tracesSampleRate: 1,
  sendClientReports: true,
  transport: recordingTransport,
  beforeSend(event) {
    const target = targets.get(event.event_id);
    if (target === "drop") return null; // recorded by the SDK as a before_send discard (client report)
    return target ? padTo(event, target) : event;
  },
});

// The generated application: one module per template.
const modules = [];
for (let k = 0; k < TEMPLATES; k++) {
  const spec = templateSpec(k, JS_FAILURES, SEED);
  const file = join(srcDir, spec.area, `${spec.module}.mjs`);
  mkdirSync(dirname(file), { recursive: true });
  writeFileSync(file, jsModule(spec, { browser: false }));
  modules.push({ spec, mod: await import(pathToFileURL(file).href) });
}

async function captureError({ spec, mod }, v) {
  const target = errorTargetBytes(r);
  await Sentry.withIsolationScope(async (scope) => {
    scope.clearBreadcrumbs();
    const crumbs = Math.max(0, Math.min(100, Math.round((target - 3500) / 260)));
    for (let i = 0; i < crumbs; i++) Sentry.addBreadcrumb(breadcrumb(r, i));
    scope.setTag("route", r.pick(ROUTES));
    scope.setTag("region", ["eu-west-1", "us-east-1", "ap-south-1"][v % 3]);
    scope.setUser({ id: String(r.int(1, 50_000)), segment: r.pick(["free", "team", "business"]) });
    scope.setContext("order", { id: 1000 + spec.k * 31 + v, items: r.int(1, 12), currency: r.pick(["EUR", "USD", "GBP"]) });
    let id;
    if (spec.failure === "message") {
      const result = mod.run(jsInput(spec, v));
      id = Sentry.captureMessage(`Slow response from ${result.service}: ${result.ms} ms`, r.pick(["warning", "info", "error"]));
    } else {
      try {
        mod.run(jsInput(spec, v));
      } catch (error) {
        id = Sentry.captureException(error);
      }
    }
    if (id) targets.set(id, target);
  });
}

async function captureTransaction(t) {
  // The first one hits the SDK's cap of 1000 spans per transaction.
  const n = t === 0 ? 1000 : spanCount(r);
  const route = ROUTES[t % ROUTES.length];
  await Sentry.startSpan(
    { name: route, op: "http.server", attributes: { "http.request.method": route.split(" ")[0], "http.response.status_code": 200 } },
    async (root) => {
      let parent = root;
      for (let i = 1; i < n; i++) {
        // Mostly flat, with some nesting: a handler span every 20 spans holds the ones after it.
        if (i % 20 === 1 && i > 1) {
          parent.end();
          parent = Sentry.startInactiveSpan({ name: `handler step ${i / 20}`, op: "function", parentSpan: root });
          continue;
        }
        const kind = i % 3;
        const attrs =
          kind === 0
            ? { "db.system": "postgresql", "db.statement": QUERIES[i % QUERIES.length] }
            : kind === 1
              ? { "http.request.method": "GET", "server.address": "payments.internal" }
              : { "cache.hit": i % 2 === 0 };
        const name = kind === 0 ? QUERIES[i % QUERIES.length] : kind === 1 ? HTTP_CALLS[i % HTTP_CALLS.length] : `cache.get order:${i}`;
        const span = Sentry.startInactiveSpan({
          name,
          op: kind === 0 ? "db" : kind === 1 ? "http.client" : "cache.get",
          parentSpan: parent,
          attributes: attrs,
        });
        span.end();
      }
      if (parent !== root) parent.end();
    },
  );
}

for (const [i, m] of modules.entries()) {
  await captureError(m, 0);
  await captureError(m, 1 + (i % 3));
  if (i % 8 === 0) await Sentry.flush(5000);
}
for (let t = 0; t < Math.max(8, Math.round(TEMPLATES / 4)); t++) {
  await captureTransaction(t);
  // One transaction per envelope, as a server with light traffic sends them; under load the
  // SDK batches several segments into one container, which the 1000-span ones show anyway.
  await Sentry.flush(5000);
}
for (let s = 0; s < 10; s++) {
  Sentry.startSession();
  const session = Sentry.getIsolationScope().getSession();
  if (session && s % 4 === 3) session.errors = 1;
  Sentry.endSession();
}
// Client reports: events the application drops in beforeSend are counted by the SDK and sent
// as `client_report` items when it flushes.
for (let c = 0; c < 6; c++) {
  for (let d = 0; d <= c; d++) targets.set(Sentry.captureMessage(`dropped by beforeSend ${c}.${d}`), "drop");
  await new Promise((resolve) => setTimeout(resolve, 20));
  await Sentry.flush(5000);
}
await Sentry.flush(5000);
await Sentry.close(5000);
writeFileSync(outFile, captured.map((c) => JSON.stringify(c)).join("\n") + "\n");
process.stdout.write(JSON.stringify({ captured: captured.length }) + "\n");
