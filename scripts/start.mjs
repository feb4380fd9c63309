// `npm start`: build if the sources changed since the last build, then serve.
import { join } from "node:path";
import { clearInterval, setInterval } from "node:timers";
import { pathToFileURL } from "node:url";
import { buildApp, buildServer, root } from "./build.mjs";

// npm runs this script through `sh -c`. Killed, npm passes the signal to that shell, which dies
// without passing it on: this process would go on serving with no parent. A changed parent
// therefore stops it as SIGTERM does (package.json's `exec` also hands npm's signal straight here).
const parent = process.ppid;
const orphaned = setInterval(() => {
  if (process.ppid === parent) return;
  clearInterval(orphaned);
  process.kill(process.pid, "SIGTERM");
}, 1000).unref();

await buildServer();
await buildApp();
process.argv = [process.argv[0], join(root, "dist/cli.js"), "serve", ...process.argv.slice(2)];
await import(pathToFileURL(join(root, "dist/cli.js")).href);
