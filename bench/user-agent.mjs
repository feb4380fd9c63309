// Micro-benchmark of User-Agent parsing in normalization (src/core/normalize/user-agent.ts):
// µs per event for 10,000 distinct UAs (every one a cache miss: the parser's own cost) and for
// 10,000 events drawn from 200 UAs (a site's real mix, mostly cache hits); beside them, the whole
// normalization of @sentry/browser's error event with a new UA each time, for scale.
// Run: node bench/user-agent.mjs
import process from "node:process";
import { importTs } from "./util.mjs";

const { parseUserAgent, normalizeEvent, browserEvent } = await importTs(
  'export { parseUserAgent } from "./src/core/normalize/user-agent"; export { normalizeEvent } from "./src/core/normalize/normalize-event"; export { browserEvent } from "./test/support/sdk-events";',
  "ua",
);

const TEMPLATES = [
  (v, m) => `Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/${v}.0.${m}.0 Safari/537.36`,
  (v, m) =>
    `Mozilla/5.0 (Macintosh; Intel Mac OS X 10_15_${m % 8}) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/${v % 20}.${m % 7} Safari/605.1.15`,
  (v, m) => `Mozilla/5.0 (X11; Linux x86_64; rv:${v}.0) Gecko/20100101 Firefox/${v}.${m}`,
  (v, m) =>
    `Mozilla/5.0 (iPhone; CPU iPhone OS 17_${m % 9} like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.${v % 9} Mobile/15E${m} Safari/604.1`,
  (v, m) =>
    `Mozilla/5.0 (Linux; Android ${10 + (m % 5)}; SM-S${900 + (v % 99)}B) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/${v}.0.${m}.39 Mobile Safari/537.36`,
  (v, m) =>
    `Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/${v}.0.0.0 Safari/537.36 Edg/${v}.0.${m}.86`,
  (v, m) => `Mozilla/5.0 (compatible; Googlebot/2.${v % 10}; +http://www.google.com/bot.html) ${m}`,
  (v, m) => `python-requests/2.${v}.${m}`,
];
const distinct = (n) => Array.from({ length: n }, (_, i) => TEMPLATES[i % TEMPLATES.length](80 + (i % 60), i));

function perEvent(uas) {
  const started = process.hrtime.bigint();
  for (const ua of uas) parseUserAgent(ua);
  return Number(process.hrtime.bigint() - started) / 1000 / uas.length;
}

// Warm the JIT on strings not measured.
perEvent(distinct(2000).map((ua) => `${ua} warm`));
const misses = perEvent(distinct(10_000));
const pool = distinct(200).map((ua) => `${ua} mix`);
const mix = Array.from({ length: 10_000 }, (_, i) => pool[(i * 7919) % pool.length]);
perEvent(pool); // the pool's first sight is a miss; the measured run is the steady state
const hits = perEvent(mix);
const events = distinct(10_000).map((ua) => {
  const raw = browserEvent();
  raw.request = { ...raw.request, headers: { "User-Agent": `${ua} event` } };
  return raw;
});
const receivedAt = new Date();
function normalizeAll(raws) {
  const started = process.hrtime.bigint();
  for (const raw of raws) normalizeEvent(raw, { receivedAt });
  return Number(process.hrtime.bigint() - started) / 1000 / raws.length;
}
normalizeAll(events.slice(0, 1000).map((raw) => ({ ...raw, request: { ...raw.request, headers: { "User-Agent": "warm" } } })));
const whole = normalizeAll(events);
const wholeCached = normalizeAll(
  events.map((raw, i) => ({ ...raw, request: { ...raw.request, headers: { "User-Agent": pool[i % pool.length] } } })),
);
process.stdout.write(`10,000 distinct UAs (cache misses): ${misses.toFixed(1)} µs/event\n`);
process.stdout.write(`10,000 events from 200 UAs (cache hits): ${hits.toFixed(2)} µs/event\n`);
process.stdout.write(`normalizeEvent of a @sentry/browser error, a new UA each: ${whole.toFixed(1)} µs/event\n`);
process.stdout.write(`normalizeEvent of a @sentry/browser error, UAs from the 200: ${wholeCached.toFixed(1)} µs/event\n`);
