// `npm start`: build if the sources changed since the last build, then serve.
import { join } from "node:path";
import { pathToFileURL } from "node:url";
import { buildApp, buildServer, root } from "./build.mjs";

await buildServer();
await buildApp();
process.argv = [process.argv[0], join(root, "dist/cli.js"), "serve", ...process.argv.slice(2)];
await import(pathToFileURL(join(root, "dist/cli.js")).href);
