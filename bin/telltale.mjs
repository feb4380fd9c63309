#!/usr/bin/env -S MALLOC_ARENA_MAX=2 MALLOC_MMAP_THRESHOLD_=131072 MALLOC_TRIM_THRESHOLD_=262144 node --max-semi-space-size=2
// The `telltale` command. Builds the server bundle first when its sources changed (about a second).
import { join } from "node:path";
import { pathToFileURL } from "node:url";
import { buildServer, root } from "../scripts/build.mjs";

await buildServer();
if (process.argv[2] === "serve") {
  const { buildApp } = await import("../scripts/build.mjs");
  await buildApp();
}
await import(pathToFileURL(join(root, "dist/cli.js")).href);
