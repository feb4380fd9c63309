import { dirname, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { prestartUi } from "../server/ui-prestart";
import type * as Main from "./main";

// `serve`: the web UI's thread starts loading Next.js now, while this thread loads the rest of
// the CLI (dist/cli-main.js: the database drivers, Kysely, zod…) and migrates (ui-prestart.ts).
if (process.argv[2] === "serve")
  prestartUi(new URL("./next-worker.js", import.meta.url), resolve(dirname(fileURLToPath(import.meta.url)), ".."));

const { main } = (await import(new URL("./cli-main.js", import.meta.url).href)) as typeof Main;
const code = await main(process.argv.slice(2));
// `serve` keeps running on its own handles; every other command ends here.
if (code !== 0 || process.argv[2] !== "serve") process.exitCode = code;
// A server that failed to start ends now, whatever handles its start left behind.
if (code !== 0 && process.argv[2] === "serve") process.exit(code);
