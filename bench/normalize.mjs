// Micro-benchmark of event normalization (src/core/normalize/normalize-event.ts): µs per event
// for the SDK fixtures (node http, browser, python wsgi) and ms for one huge, flat event.
// Speed lives here, not in tests: src/core/normalize/robustness.test.ts checks the shape of the
// work (reads grow with the input) without a clock, so it cannot fail because the machine is busy.
// Run: node bench/normalize.mjs
import process from "node:process";
import { importTs } from "./util.mjs";

const { normalizeEvent, browserEvent, nodeHttpEvent, pythonWsgiEvent, RECEIVED_AT } = await importTs(
  'export { normalizeEvent } from "./src/core/normalize/normalize-event"; export { browserEvent, nodeHttpEvent, pythonWsgiEvent, RECEIVED_AT } from "./test/support/sdk-events";',
  "normalize",
);
const OPTS = { receivedAt: RECEIVED_AT };

function microsPerEvent(payloads, runs) {
  const started = process.hrtime.bigint();
  for (let i = 0; i < runs; i++) normalizeEvent(payloads[i % payloads.length], OPTS);
  return Number(process.hrtime.bigint() - started) / 1000 / runs;
}

function wideEvent(width) {
  const wide = Object.fromEntries(Array.from({ length: width }, (_, i) => [`k${i}`, "v".repeat(20)]));
  return {
    extra: wide,
    contexts: wide,
    tags: wide,
    modules: wide,
    user: wide,
    request: { headers: wide, cookies: wide, data: wide, env: wide, query_string: wide },
    breadcrumbs: Array.from({ length: 5000 }, () => ({ data: wide })),
    fingerprint: Array.from({ length: 5000 }, () => "x"),
    other_key: wide,
    ...Object.fromEntries(Array.from({ length: 1000 }, (_, i) => [`top${i}`, wide])),
  };
}

const fixtures = [nodeHttpEvent(), browserEvent(), pythonWsgiEvent()];
microsPerEvent(fixtures, 3000); // warm the JIT
const lines = [`SDK fixtures: ${microsPerEvent(fixtures, 30_000).toFixed(1)} µs per event`];
for (const make of [nodeHttpEvent, browserEvent, pythonWsgiEvent]) {
  lines.push(`  ${make.name}: ${microsPerEvent([make()], 10_000).toFixed(1)} µs per event`);
}
const huge = wideEvent(50_000);
const started = process.hrtime.bigint();
normalizeEvent(huge, OPTS);
lines.push(`huge flat event (50 000 keys in every slot): ${(Number(process.hrtime.bigint() - started) / 1e6).toFixed(0)} ms`);
process.stdout.write(`${lines.join("\n")}\n`);
