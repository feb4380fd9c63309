// Captures what @sentry/browser sends from headless Chromium: run as its own process by
// bench/corpus.mjs.   node bench/corpus/browser-sdk.mjs OUT.jsonl TEMPLATES SEED
// The shop lives at https://shop.example.com (every request is answered by page.route, so
// nothing leaves the machine and no inbound localhost filter applies); the SDK's envelopes
// to https://o1.ingest.example.com are recorded byte for byte and answered 200.
/* global window, document, Event -- the functions given to page.evaluate run in the page */
import { writeFileSync } from "node:fs";
import process from "node:process";
import { build } from "esbuild";
import { chromium } from "playwright-core";
import { ROOT } from "../util.mjs";
import { jsModule, JS_FAILURES, templateSpec } from "./app-code.mjs";
import { PLACEHOLDER_KEY, PLACEHOLDER_PROJECT } from "./placeholder.mjs";
import { setTimeout } from "node:timers";
import { URL } from "node:url";
import { Buffer } from "node:buffer";

const [outFile, templatesArg, seedArg] = process.argv.slice(2);
const TEMPLATES = Number(templatesArg ?? 120);
const SEED = Number(seedArg ?? 2);
const ORIGIN = "https://shop.example.com";
const DSN = `https://${PLACEHOLDER_KEY}@o1.ingest.example.com/${PLACEHOLDER_PROJECT}`;

const sdk = (
  await build({
    stdin: { contents: 'import * as Sentry from "@sentry/browser"; window.Sentry = Sentry;', resolveDir: ROOT, loader: "js" },
    bundle: true,
    format: "iife",
    minify: true,
    write: false,
    platform: "browser",
    logLevel: "silent",
  })
).outputFiles[0].text;

// Every other template ships minified, as most production bundles do.
const scripts = new Map();
for (let k = 0; k < TEMPLATES; k++) {
  const spec = templateSpec(k, JS_FAILURES, SEED);
  let code = jsModule(spec, { browser: true });
  const hash = ((k * 2654435761) >>> 0).toString(16).padStart(8, "0");
  if (k % 2 === 1)
    code = (await build({ stdin: { contents: code, loader: "js" }, minify: true, write: false, logLevel: "silent" })).outputFiles[0].text;
  scripts.set(`/static/js/${spec.module}.${hash}.js`, { code, spec });
}

// The page's own code: Sentry.init and the helpers the capture loop calls.
const appJs = `
window.__targets = {};
function __pad(event, target) {
  var size = JSON.stringify(event).length, state = [], i = 0;
  while (size < target && i < 2000) {
    var chunk = { line: i, sku: "SKU-" + (10000 + ((i * 7919) % 89999)), name: "bundle " + i, quantity: 1 + (i % 9), unit_price: (i * 37) % 9999 / 100, note: "y".repeat(10 + (i * 13) % 110) };
    state.push(chunk); size += JSON.stringify(chunk).length + 1; i++;
  }
  if (state.length) event.extra = Object.assign({}, event.extra, { cart_state: state });
  return event;
}
Sentry.init({
  dsn: ${JSON.stringify(DSN)},
  release: "shop-web@2.31.0",
  environment: "production",
  tracesSampleRate: 1,
  integrations: [Sentry.browserTracingIntegration()],
  // Under page.route interception Chromium fails keepalive fetches of larger envelopes
  // ("Failed to fetch", counted by the SDK as network_error). The flag changes nothing in
  // the bytes sent; turning it off lets every envelope through.
  transportOptions: { fetchOptions: { keepalive: false } },
  beforeSend: function (event) {
    // Event processing is synchronous in the browser SDK when no processor waits, so the
    // target is set just before the capture call as well as by event id.
    var target = window.__targets[event.event_id] || window.__nextTarget;
    if (target === "drop") return null;
    return target ? __pad(event, target) : event;
  },
});

// One user action that fails: breadcrumbs first (console, clicks, fetches, navigations), then
// the template runs from a timer, so the stack holds only the shop's own frames. Odd templates
// are left uncaught (the SDK's global handler reports them), even ones are caught and captured.
window.__benchCapture = function (k, v, target, failure) {
  var S = window.Sentry;
  S.getIsolationScope().clearBreadcrumbs();
  var crumbs = Math.max(0, Math.min(100, Math.round((target - 3000) / 300)));
  for (var i = 0; i < crumbs; i++) {
    if (i % 4 === 0) console.info("cart " + (k * 100 + i) + " recalculated in " + i * 3 + " ms");
    else if (i % 4 === 1) S.addBreadcrumb({ category: "navigation", data: { from: "/orders/" + i, to: "/checkout/" + k } });
    else if (i % 4 === 2) S.addBreadcrumb({ type: "http", category: "fetch", data: { method: "GET", url: "/api/cart/" + k + "/items?page=" + i, status_code: 200 } });
    else document.getElementById("pay").click();
  }
  S.setTag("page", ["checkout", "orders", "search"][v % 3]);
  S.setUser({ id: String(k * 97 + v) });
  var input = { id: 1000 + k * 31 + v, region: ["eu", "us", "ap"][v % 3], quantity: 3 + v, key: "k" + v, config: {}, cache: new Map(), lines: { length: 2 }, payload: "{oops" };
  return new Promise(function (resolve) {
    window.__nextTarget = target;
    setTimeout(function () {
      // Cleared by the next timer, after a rethrown uncaught error has been reported.
      setTimeout(function () { window.__nextTarget = undefined; S.flush(5000).then(resolve); }, 0);
      if (failure === "message") {
        var result = window.__benchApp[k](input);
        S.captureMessage("Slow response from " + result.service + ": " + result.ms + " ms", "warning");
      } else if (k % 2 === 1) {
        window.__benchApp[k](input);
      } else {
        try { window.__benchApp[k](input); } catch (error) { S.captureException(error); }
      }
    }, 0);
  });
};
`;

const html = `<!doctype html><html><head><title>Shop</title>
<script src="/static/js/sentry.js"></script><script src="/static/js/app.js"></script>
${[...scripts.keys()].map((p) => `<script src="${p}"></script>`).join("\n")}
</head><body><main><h1>Checkout</h1><button id="pay" class="btn btn-primary">Pay</button><a href="/orders">Orders</a></main></body></html>`;

const captured = [];
const browser = await chromium.launch({
  executablePath: process.env.CHROMIUM_PATH ?? "/usr/bin/chromium",
  args: [
    "--no-sandbox",
    "--disable-gpu",
    "--disable-background-networking",
    "--disable-quic",
    "--no-first-run",
    "--disable-component-update",
    "--disable-sync",
  ],
});
try {
  const version = browser.version();
  // A desktop Chrome user agent (HeadlessChrome is what tests look like, not users).
  const context = await browser.newContext({
    userAgent: `Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/${version} Safari/537.36`,
  });
  await context.route("**/*", async (route) => {
    const request = route.request();
    const url = new URL(request.url());
    if (url.hostname === "o1.ingest.example.com") {
      const headers = await request.allHeaders();
      const keep = {};
      for (const name of ["content-type", "origin"]) if (headers[name]) keep[name] = headers[name];
      captured.push({
        sdk: "browser",
        path: url.pathname + url.search,
        headers: keep,
        chunked: false,
        encoding: headers["content-encoding"] ?? null,
        body: (request.postDataBuffer() ?? Buffer.alloc(0)).toString("base64"),
      });
      return route.fulfill({ status: 200, contentType: "application/json", headers: { "access-control-allow-origin": "*" }, body: "{}" });
    }
    if (url.origin !== ORIGIN) return route.abort();
    if (url.pathname === "/static/js/sentry.js") return route.fulfill({ status: 200, contentType: "application/javascript", body: sdk });
    if (url.pathname === "/static/js/app.js") return route.fulfill({ status: 200, contentType: "application/javascript", body: appJs });
    const script = scripts.get(url.pathname);
    if (script) return route.fulfill({ status: 200, contentType: "application/javascript", body: script.code });
    if (url.pathname.startsWith("/api/"))
      return route.fulfill({ status: 200, contentType: "application/json", body: JSON.stringify({ ok: true, items: [1, 2, 3] }) });
    return route.fulfill({ status: 200, contentType: "text/html", body: html });
  });

  const page = await context.newPage();
  await page.goto(`${ORIGIN}/checkout`, { waitUntil: "load" });

  // Errors: two captures per template, with breadcrumbs from real clicks, fetches and console
  // calls plus manual ones, topped up to a target size in beforeSend. All templates once, then
  // all again: the SDK's dedupe integration drops an event equal to the one just before it.
  for (const round of [0, 1]) {
    for (let k = 0; k < TEMPLATES; k++) {
      const v = round === 0 ? 0 : 1 + (k % 3);
      const seed = k * 13 + v * 7;
      const target = [2500, 3000, 4000, 5000, 6000, 8000, 10000, 14000, 24000, 48000][seed % 10];
      // One request in flight at a time (the runner flushes before it resolves).
      await page.evaluate(({ k, v, target, failure }) => window.__benchCapture(k, v, target, failure), {
        k,
        v,
        target,
        failure: templateSpec(k, JS_FAILURES, SEED).failure,
      });
    }
  }
  await page.evaluate(() => window.Sentry.flush(5000));

  // Transactions: interactions with 10–600 child spans (fetches, resources, long tasks, ui).
  const spanCounts = [1000, 10, 12, 15, 20, 25, 30, 40, 60, 80, 120, 200, 400];
  for (let t = 0; t < Math.max(6, Math.round(TEMPLATES / 4)); t++) {
    const n = spanCounts[t % spanCounts.length];
    await page.evaluate(async (n) => {
      const S = window.Sentry;
      await S.startSpan(
        { name: `/checkout/${["cart", "address", "payment", "review"][n % 4]}`, op: "navigation", forceTransaction: true },
        async (root) => {
          for (let i = 1; i < n; i++) {
            const op = ["resource.script", "http.client", "ui.long-task", "browser.paint", "resource.img"][i % 5];
            S.startInactiveSpan({
              name: op === "http.client" ? `GET https://shop.example.com/api/cart/${i}` : `${op} ${i}`,
              op,
              parentSpan: root,
            }).end();
          }
          await new Promise((r) => setTimeout(r, 5));
        },
      );
      await S.flush(5000);
    }, n);
  }

  // Client reports: events dropped in beforeSend are sent when the page is hidden.
  for (let c = 0; c < 4; c++) {
    await page.evaluate(async (c) => {
      window.__nextTarget = "drop";
      for (let d = 0; d <= c; d++) window.__targets[window.Sentry.captureMessage(`dropped ${c}.${d}`)] = "drop";
      window.__nextTarget = undefined;
      await new Promise((r) => setTimeout(r, 50));
      Object.defineProperty(document, "visibilityState", { value: "hidden", configurable: true });
      document.dispatchEvent(new Event("visibilitychange"));
      await window.Sentry.flush(5000);
      Object.defineProperty(document, "visibilityState", { value: "visible", configurable: true });
    }, c);
  }
  // Sessions: every page load starts one (browserSessionIntegration).
  for (let s = 0; s < 6; s++) {
    await page.evaluate(() => window.Sentry.flush(5000));
    await page.waitForTimeout(200);
    await page.goto(`${ORIGIN}/orders?page=${s}`, { waitUntil: "load" });
  }
  await page.evaluate(() => window.Sentry.flush(5000));
  await page.waitForTimeout(500);
} finally {
  await browser.close();
}
writeFileSync(outFile, captured.map((c) => JSON.stringify(c)).join("\n") + "\n");
process.stdout.write(JSON.stringify({ captured: captured.length }) + "\n");
