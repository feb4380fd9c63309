// The cost of symbolicating a 30-frame minified JavaScript stack, cold (map decoded,
// scopes indexed) and with the map cached: a real esbuild bundle (the app's 30 functions
// with @sentry/browser bundled in, for a map of realistic size) is run in node:vm to get the
// stack V8 reports, then the source-map enricher resolves it.
//   node bench/symbolicate.mjs [--runs 10]
import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import process from "node:process";
import vm from "node:vm";
import { build as esbuild } from "esbuild";
import { CACHE, ROOT } from "./util.mjs";

const at = process.argv.indexOf("--runs");
const runs = at === -1 ? 10 : Number(process.argv[at + 1]);
const dir = join(CACHE, "symbolicate");
mkdirSync(join(dir, "src"), { recursive: true });
const fns = Array.from({ length: 30 }, (_, i) =>
  i === 29
    ? `export const step29 = (order) => {\n  if (order.total > 0) throw new Error("declined " + order.id);\n};`
    : `export const step${i} = (order) => {\n  const next = { ...order, seen: ${i} };\n  return step${i + 1}(next);\n};`,
);
writeFileSync(join(dir, "src", "steps.js"), fns.join("\n\n") + "\n");
writeFileSync(
  join(dir, "src", "main.js"),
  'import * as Sentry from "@sentry/browser";\nimport { step0 } from "./steps.js";\nglobalThis.Sentry = Sentry;\nglobalThis.run = () => step0({ id: 7, total: 3 });\n',
);
const out = await esbuild({
  entryPoints: [join(dir, "src", "main.js")],
  bundle: true,
  minify: true,
  sourcemap: "external",
  format: "iife",
  platform: "browser",
  outfile: join(dir, "app.min.js"),
  write: false,
  nodePaths: [join(ROOT, "node_modules")],
  logLevel: "silent",
});
const minified = out.outputFiles.find((f) => f.path.endsWith(".js")).text;
const map = out.outputFiles.find((f) => f.path.endsWith(".map")).text;
const context = vm.createContext({ globalThis: {}, window: {}, self: {}, navigator: {}, document: undefined });
context.globalThis = context;
vm.runInContext("Error.stackTraceLimit = 50", context);
let stack = "";
try {
  vm.runInContext(minified, context, { filename: "https://shop.example/app.min.js" });
  context.run();
} catch (error) {
  stack = String(error.stack);
}
const frames = [...stack.matchAll(/at (?:(\S+) \()?https:\/\/shop\.example\/app\.min\.js:(\d+):(\d+)\)?/g)]
  .map((m) => ({ abs_path: "https://shop.example/app.min.js", function: m[1], lineno: Number(m[2]), colno: Number(m[3]), in_app: true }))
  .reverse();
const entry = join(dir, "entry.mjs");
await esbuild({
  entryPoints: [join(ROOT, "bench/symbolicate-entry.ts")],
  bundle: true,
  platform: "node",
  format: "esm",
  outfile: entry,
  packages: "external",
  logLevel: "silent",
});
const { measure } = await import(entry);
const { cold, warm, resolved } = await measure({ minified, map, frames, runs });
const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
const ms = (x) => `${x.toFixed(2)} ms`;
process.stdout.write(
  JSON.stringify({
    frames: frames.length,
    resolved,
    minifiedKB: Math.round(minified.length / 1024),
    mapKB: Math.round(map.length / 1024),
    coldMedian: ms(median(cold)),
    warmMedian: ms(median(warm)),
    warmPerFrameUs: Math.round((median(warm) * 1000) / Math.max(1, frames.length)),
  }) + "\n",
);
