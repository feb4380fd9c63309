import { mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { buildSync } from "esbuild";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Ctx } from "../../src/core/context";
import { digestBatch } from "../../src/core/digest/batch";
import { DEFAULT_ENVELOPE_LIMITS } from "../../src/core/envelope/index";
import { createProject } from "../../src/core/projects/create-project";
import type { NormalizedEvent } from "../../src/core/normalize/types";
import { decodePayload } from "../../src/core/storage/payload";
import { sentryCli } from "../support/clients";
import { buildEnvelope, newEventId } from "../support/envelopes";
import { openCliProject, type CliProject } from "../support/cli-project";
import { connect } from "../../src/db/connect";
import { startApiServer } from "../support/api-server";
import { DIALECTS, testCtx, type TestStore } from "../support/stores";

const SOURCE = `const assertCardNumber = (card) => {
  if (card.length < 4) {
    throw new Error("payment declined");
  }
};

export function submitOrder(card) {
  assertCardNumber(card);
  return card.slice(-4);
}
`;

/** The app minified by esbuild with a source map; `variant` changes the bundle (not the code that throws). */
function build(dir: string, variant: number): { dist: string; js: string } {
  mkdirSync(join(dir, "src"), { recursive: true });
  writeFileSync(join(dir, "src", "checkout.js"), SOURCE);
  writeFileSync(
    join(dir, "src", "main.js"),
    `import { submitOrder } from "./checkout.js";\n${variant === 2 ? 'console.log("build two", [1, 2, 3].map((n) => n * 2));\n' : ""}submitOrder(globalThis.card);\n`,
  );
  buildSync({
    entryPoints: [join(dir, "src", "main.js")],
    bundle: true,
    minify: true,
    sourcemap: true,
    format: variant === 2 ? "esm" : "iife",
    outfile: join(dir, "dist", "app.min.js"),
    logLevel: "silent",
  });
  return { dist: join(dir, "dist"), js: join(dir, "dist", "app.min.js") };
}

/** Where the `throw` is in the minified file (1-based), as the browser reports it. */
function throwPosition(js: string): { lineno: number; colno: number } {
  const lines = readFileSync(js, "utf8").split("\n");
  const line = lines.findIndex((l) => l.includes("payment declined"));
  return { lineno: line + 1, colno: lines[line]!.lastIndexOf("throw", lines[line]!.indexOf("payment declined")) + 1 };
}

/**
 * Issue 13, item 2: symbolication in the digest's enrichment step, with source maps uploaded by
 * the real sentry-cli: by debug id, and by release and URL for a build without debug ids. The
 * stored event shows the original file, line, enclosing function and context; the minified stack
 * is kept as the raw view; two different minified builds of the same code are one issue.
 */
describe.each(DIALECTS)("symbolication of uploaded source maps on %s", (dialect) => {
  let bench: CliProject;
  let store: TestStore;
  let ctx: Ctx;
  let api: CliProject["api"];
  let token = "";
  let projectId = 0;
  let work = "";

  beforeAll(async () => {
    bench = await openCliProject(dialect);
    ({ store, ctx, api, token, projectId, work } = bench);
  });
  afterAll(() => bench.close());

  const cli = async (args: string[]) => {
    const run = await sentryCli(api.base, token, args);
    expect(run.code, run.out).toBe(0);
    return run.out;
  };

  /** Sends the error as @sentry/browser would (frames oldest first), digests it and reads it back. */
  async function capture(
    js: string,
    extra: { debugId?: string; release?: string; project?: number },
  ): Promise<{ issueId: number; event: NormalizedEvent }> {
    const eventId = newEventId();
    const absPath = "https://shop.example/static/app.min.js";
    const payload = {
      event_id: eventId,
      platform: "javascript",
      timestamp: Date.now() / 1000,
      ...(extra.release ? { release: extra.release } : {}),
      exception: {
        values: [
          {
            type: "Error",
            value: "payment declined",
            stacktrace: { frames: [{ abs_path: absPath, filename: absPath, function: "o", in_app: true, ...throwPosition(js) }] },
          },
        ],
      },
      ...(extra.debugId ? { debug_meta: { images: [{ type: "sourcemap", code_file: absPath, debug_id: extra.debugId }] } } : {}),
    };
    await store.queue
      .insertInto("ingest_queue")
      .values({
        project_id: extra.project ?? projectId,
        key_id: 0,
        endpoint: "envelope",
        received_at: Date.now(),
        body: buildEnvelope({ event_id: eventId }, [{ type: "event", payload: JSON.stringify(payload) }]),
      })
      .execute();
    await digestBatch(ctx, { batchSize: 10, limits: DEFAULT_ENVELOPE_LIMITS });
    const row = await store.db.selectFrom("events").select(["issue_id", "data"]).where("event_id", "=", eventId).executeTakeFirstOrThrow();
    return { issueId: row.issue_id!, event: JSON.parse(decodePayload(row.data)) as NormalizedEvent };
  }

  let firstIssue = 0;

  it("resolves a frame by debug id after sentry-cli sourcemaps inject and upload", async () => {
    const { dist, js } = build(join(work, "one"), 1);
    await cli(["sourcemaps", "inject", dist]);
    await cli(["sourcemaps", "upload", "--org", "acme", "--project", "web", dist]);
    const debugId = /\/\/# debugId=([0-9a-f-]{36})/.exec(readFileSync(js, "utf8"))![1]!;
    const { issueId, event } = await capture(js, { debugId });
    const value = event.exception!.values[0]!;
    expect(value.stacktrace!.frames[0]).toMatchObject({
      filename: "src/checkout.js",
      lineno: 3,
      function: "assertCardNumber",
      in_app: true,
    });
    expect(value.stacktrace!.frames[0]!.context_line?.trim()).toBe('throw new Error("payment declined");');
    expect(value.raw_stacktrace!.frames[0]).toMatchObject({ function: "o", abs_path: "https://shop.example/static/app.min.js" });
    expect(event.errors ?? []).toEqual([]);
    firstIssue = issueId;
  });

  it("groups another minified build of the same code into the same issue", async () => {
    const { dist, js } = build(join(work, "two"), 2);
    await cli(["sourcemaps", "inject", dist]);
    await cli(["sourcemaps", "upload", "--org", "acme", "--project", "web", dist]);
    const debugId = /\/\/# debugId=([0-9a-f-]{36})/.exec(readFileSync(js, "utf8"))![1]!;
    expect(throwPosition(js)).not.toEqual(throwPosition(join(work, "one", "dist", "app.min.js")));
    const { issueId, event } = await capture(js, { debugId });
    expect(event.exception!.values[0]!.stacktrace!.frames[0]).toMatchObject({ function: "assertCardNumber", lineno: 3 });
    expect(issueId).toBe(firstIssue);
  });

  it("resolves a build without debug ids by release and URL prefix", async () => {
    const { dist, js } = build(join(work, "three"), 1);
    await cli(["sourcemaps", "upload", "--org", "acme", "--project", "web", "--release", "shop@2.0", "--url-prefix", "~/static", dist]);
    const { event } = await capture(js, { release: "shop@2.0" });
    expect(event.exception!.values[0]!.stacktrace!.frames[0]).toMatchObject({ filename: "src/checkout.js", function: "assertCardNumber" });
  });

  it("uses a project's first upload for the very next event, not a minute later", async () => {
    const fresh = (await createProject({ ctx, input: { org: "acme", slug: "fresh", platform: "javascript" } })).project.id;
    const { dist, js } = build(join(work, "five"), 1);
    const before = await capture(js, { release: "fresh@1.0", project: fresh });
    expect(before.event.exception!.values[0]!.stacktrace!.frames[0]).toMatchObject({ function: "o" });
    await cli(["sourcemaps", "upload", "--org", "acme", "--project", "fresh", "--release", "fresh@1.0", "--url-prefix", "~/static", dist]);
    const after = await capture(js, { release: "fresh@1.0", project: fresh });
    expect(after.event.exception!.values[0]!.stacktrace!.frames[0]).toMatchObject({
      filename: "src/checkout.js",
      function: "assertCardNumber",
    });
  });

  it.runIf(dialect === "postgres")("uses an upload another process took for the next event", async () => {
    const other = connect({ kind: "postgres", url: store.env.DATABASE_URL!, poolMax: 2 });
    const elsewhere = await startApiServer(testCtx(other));
    try {
      const far = (await createProject({ ctx, input: { org: "acme", slug: "far", platform: "javascript" } })).project.id;
      const { dist, js } = build(join(work, "six"), 1);
      const before = await capture(js, { release: "far@1.0", project: far });
      expect(before.event.exception!.values[0]!.stacktrace!.frames[0]).toMatchObject({ function: "o" });
      const args = ["sourcemaps", "upload", "--org", "acme", "--project", "far", "--release", "far@1.0", "--url-prefix", "~/static", dist];
      const run = await sentryCli(elsewhere.base, token, args);
      expect(run.code, run.out).toBe(0);
      const after = await capture(js, { release: "far@1.0", project: far });
      expect(after.event.exception!.values[0]!.stacktrace!.frames[0]).toMatchObject({ function: "assertCardNumber" });
    } finally {
      await elsewhere.close();
      await other.close();
    }
  });

  it("stores the event as it came, saying why, when no map matches", async () => {
    const { js } = build(join(work, "four"), 1);
    const { event } = await capture(js, { release: "shop@9.9" });
    expect(event.exception!.values[0]!.stacktrace!.frames[0]).toMatchObject({ function: "o" });
    expect(event.errors).toEqual([expect.objectContaining({ type: "js_no_source", value: expect.stringContaining("shop@9.9") })]);
  });
});
