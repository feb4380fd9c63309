import { execFile } from "node:child_process";
import { mkdirSync, mkdtempSync, rmSync, statSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { promisify } from "node:util";
import { buildSync } from "esbuild";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createUser } from "../../src/core/accounts/create-user";
import { buildDsn } from "../../src/core/auth/dsn";
import type { NormalizedEvent } from "../../src/core/normalize/types";
import { createOrganization } from "../../src/core/orgs/create-org";
import { createProject } from "../../src/core/projects/create-project";
import { updateFilters } from "../../src/core/projects/options";
import { decodePayload } from "../../src/core/storage/payload";
import { createToken } from "../../src/core/tokens/tokens";
import { sentryCli } from "../support/clients";
import { startServer, type TestServer } from "../support/server";
import { DIALECTS, openTestStore, testCtx, type TestStore } from "../support/stores";
import { waitFor } from "../support/wait";

const run = promisify(execFile);
const CLIENT = join(import.meta.dirname, "..", "fixtures", "clients", "bundle-client.mjs");
const MODULES = 1550;

/**
 * A bundle of 1,550 generated modules: a ~7 MB minified file (under the size whose functions are
 * still parsed for names) and a ~50 MB source map (its sources carry long doc comments). Decoding
 * both takes seconds of CPU.
 */
function buildLargeBundle(work: string): string {
  const src = join(work, "src");
  mkdirSync(src);
  const doc = `/**\n${Array.from({ length: 200 }, (_, k) => ` * Line ${k} of this handler's documentation: what it takes, what it gives back, and why.`).join("\n")}\n */\n`;
  let main = "";
  for (let i = 0; i < MODULES; i++) {
    let body = `${doc}export function handler${i}(input) {\n`;
    for (let j = 0; j < 60; j++)
      body += `  const value${j} = input.items.map((item) => item.price * ${j + 1} + ${i}).filter((x) => x > ${j});\n  if (value${j}.length > 1000) return value${j};\n`;
    writeFileSync(join(src, `m${i}.js`), `${body}  return null;\n}\n`);
    main += `import { handler${i} } from "./m${i}.js";\n`;
  }
  main += `globalThis.all = [${Array.from({ length: MODULES }, (_, i) => `handler${i}`).join(",")}];\n`;
  writeFileSync(join(src, "main.js"), main);
  const out = join(work, "dist", "big.min.js");
  buildSync({ entryPoints: [join(src, "main.js")], bundle: true, minify: true, sourcemap: true, outfile: out, logLevel: "silent" });
  return out;
}

async function client(dsn: string, args: string[]): Promise<{ id: string; flushedAt: number }> {
  const { stdout } = await run(process.execPath, [CLIENT, ...args], { env: { ...process.env, DSN: dsn }, timeout: 60_000 });
  return JSON.parse(stdout.trim().split("\n").pop()!) as { id: string; flushedAt: number };
}

/**
 * Issue 13: "While a 50 MB map decodes, another project's event is stored within 2 s." The
 * built server decodes maps in its source-map thread; an event waiting for one is deferred, so
 * the digest stores other projects' events meanwhile, and the waiting event is symbolicated once
 * its map is decoded.
 */
describe.each(DIALECTS)("a 50 MB source map on %s", (dialect) => {
  let store: TestStore;
  let server: TestServer;
  let work = "";
  let bundle = "";
  let bigDsn = "";
  let otherDsn = "";

  beforeAll(async () => {
    store = await openTestStore(dialect);
    const ctx = testCtx(store);
    await createUser({ ctx, input: { email: "dev@example.com", password: "password-123" } });
    await createOrganization({ ctx, input: { slug: "shop", owner: "dev@example.com" } });
    const big = await createProject({ ctx, input: { org: "shop", slug: "big", platform: "node" } });
    const other = await createProject({ ctx, input: { org: "shop", slug: "other", platform: "node" } });
    for (const p of [big, other]) await updateFilters({ ctx, input: { projectId: p.project.id, changes: { localhost: false } } });
    const { token } = await createToken({ ctx, input: { user: "dev@example.com", name: "ci", scopes: ["project:releases", "org:read"] } });
    server = await startServer({ ...store.env, TELLTALE_SELF_DSN: "off" });
    bigDsn = buildDsn(server.url, big.key.public_key, big.project.id);
    otherDsn = buildDsn(server.url, other.key.public_key, other.project.id);

    work = mkdtempSync(join(tmpdir(), "telltale-big-map-"));
    bundle = buildLargeBundle(work);
    expect(statSync(`${bundle}.map`).size).toBeGreaterThan(48 * 1024 * 1024);
    for (const args of [
      ["sourcemaps", "inject", join(work, "dist")],
      ["sourcemaps", "upload", "--org", "shop", "--project", "big", join(work, "dist")],
    ]) {
      const done = await sentryCli(server.url, token, args);
      expect(done.code, done.out).toBe(0);
    }
  }, 240_000);

  afterAll(async () => {
    await server?.stop();
    await store?.cleanup();
    if (work) rmSync(work, { recursive: true, force: true });
  });

  const storedEvent = async (eventId: string) => {
    const row = await store.db.selectFrom("events").select(["data"]).where("event_id", "=", eventId.replaceAll("-", "")).executeTakeFirst();
    return row ? (JSON.parse(decodePayload(row.data)) as NormalizedEvent) : null;
  };

  it("stores another project's event while the map decodes, then the waiting event symbolicated", async () => {
    const waiting = await client(bigDsn, [bundle, "7"]);
    const other = await client(otherDsn, ["--plain", "while the big map decodes"]);
    await waitFor(() => storedEvent(other.id), 10_000, "the other project's event");
    // The other project's event did not queue behind the decode: the waiting event, sent first,
    // is not stored yet (or, stored early, kept its raw frames for symbolication later).
    const early = await storedEvent(waiting.id);
    expect(early?.exception?.values?.[0]?.stacktrace?.frames?.at(-1)?.filename ?? "").not.toMatch(/src\/m7\.js$/);

    const event = await waitFor(() => storedEvent(waiting.id), 60_000, "the symbolicated event");
    const frames = event.exception?.values?.[0]?.stacktrace?.frames ?? [];
    const top = frames[frames.length - 1]!;
    expect(top.filename).toMatch(/src\/m7\.js$/);
    expect(top.lineno).toBeGreaterThan(200);
    expect(top.context_line).toContain("input.items.map");
    expect(event.exception?.values?.[0]?.raw_stacktrace?.frames.at(-1)?.abs_path).toMatch(/big\.min\.js$/);
    expect(early === null || early.exception?.values?.[0]?.raw_stacktrace !== undefined).toBe(true);
  }, 120_000);
});
