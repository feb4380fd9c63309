import { readFileSync } from "node:fs";
import { join } from "node:path";
import type { Browser } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createUser } from "../../src/core/accounts/create-user";
import type { Frame, NormalizedEvent } from "../../src/core/normalize/types";
import { OWN_BUILD_CHECKSUM_PREFIX } from "../../src/core/selfmon/own-maps";
import { decodePayload } from "../../src/core/storage/payload";
import { launchBrowser, signIn } from "../support/browser";
import { startServer, type TestServer } from "../support/server";
import { DIALECTS, openTestStore, testCtx, type TestStore } from "../support/stores";
import { waitFor } from "../support/wait";

const ROOT = join(import.meta.dirname, "..", "..");
const SHOTS = join(ROOT, "test-results");
const THROWER = "app/debug/client-error/thrower.tsx";
const THROW_LINE = 'if (broken) throw new Error("Telltale debug: deliberate client error");';

/**
 * Issue 13, item 5: Telltale's own browser bundle is symbolicated out of the box. The build gave
 * every chunk and its map a debug id (sentry-cli sourcemaps inject, scripts/build.mjs); the
 * server registers the maps for the internal project at start; an error thrown by Telltale's own
 * client code in Chromium is stored there with its original file, line, function and code.
 */
describe.each(DIALECTS)("Telltale's own source maps on %s", (dialect) => {
  let store: TestStore;
  let server: TestServer;
  let browser: Browser;

  const ownBundles = () =>
    store.db
      .selectFrom("artifact_bundles")
      .innerJoin("organizations", "organizations.id", "artifact_bundles.organization_id")
      .select(["artifact_bundles.id", "artifact_bundles.checksum", "artifact_bundles.file_count"])
      .where("organizations.slug", "=", "telltale-internal")
      .execute();

  const registered = (s: TestServer, what: RegExp) =>
    waitFor(async () => what.exec(s.logs()), 20_000, `a log line matching ${what.source}`);

  beforeAll(async () => {
    store = await openTestStore(dialect);
    await createUser({ ctx: testCtx(store), input: { email: "ops@example.com", password: "password-123", superuser: true } });
    server = await startServer({ ...store.env, TELLTALE_DEBUG_PAGES: "true" });
    browser = await launchBrowser();
  });

  afterAll(async () => {
    await browser?.close();
    await server?.stop();
    await store?.cleanup();
  });

  it("registers the build's chunks and maps for the internal project once the UI answers, and serves no map", async () => {
    const line = await registered(server, /own source maps registered build="([^"]+)" ms=\d+ files=(\d+) bytes=(\d+) dropped=0/);
    const buildId = readFileSync(join(ROOT, ".next", "BUILD_ID"), "utf8").trim();
    expect(line[1]).toBe(buildId);
    const bundles = await ownBundles();
    expect(bundles).toEqual([{ id: bundles[0]!.id, checksum: `${OWN_BUILD_CHECKSUM_PREFIX}${buildId}`, file_count: Number(line[2]) }]);
    const files = await store.db
      .selectFrom("artifact_files")
      .select(["url", "type", "debug_id"])
      .where("bundle_id", "=", bundles[0]!.id)
      .execute();
    const maps = files.filter((f) => f.type === "source_map");
    expect(maps.length).toBeGreaterThan(5);
    expect(files.length).toBe(maps.length * 2);
    for (const f of files) expect(f.url).toMatch(/^~\/_next\/static\/chunks\/[\w-]+\.js(\.map)?$/);

    // A chunk is served with its debug id; its map is not served at all.
    const chunk = files.find((f) => f.type === "minified_source")!;
    const js = await fetch(`${server.url}${chunk.url.slice(1)}`);
    expect(js.status).toBe(200);
    expect(await js.text()).toContain(`//# debugId=${chunk.debug_id}`);
    const mapUrl = maps[0]!.url.slice(1);
    for (const path of [mapUrl, mapUrl.replace(/\.map$/, "%2Emap"), `/${mapUrl}`]) {
      const answer = await fetch(`${server.url}${path}`);
      expect(answer.status, path).toBe(404);
      expect(await answer.text(), path).not.toContain('"mappings"');
    }
  });

  it("stores an error thrown by Telltale's own client code with its original file, line, function and code", async () => {
    await registered(server, /own source maps registered/);
    const page = await browser.newPage({ viewport: { width: 1280, height: 900 } });
    await signIn(page, server.url, "ops@example.com", /\/(orgs\/[a-z0-9-]+|orgs)$/);
    await page.goto(`${server.url}/debug/client-error`);
    await page.click("main button:text-is('Throw in the browser')");
    await expect(page.locator("main h1").textContent()).resolves.toBe("Something went wrong");

    const row = await waitFor(
      async () =>
        store.db
          .selectFrom("events")
          .innerJoin("projects", "projects.id", "events.project_id")
          .select(["events.data", "events.issue_id"])
          .where("projects.slug", "=", "telltale")
          .where("events.title", "like", "%deliberate client error%")
          .executeTakeFirst(),
      30_000,
      "the browser error in the internal project",
    );
    const event = JSON.parse(decodePayload(row.data)) as NormalizedEvent;
    const value = event.exception!.values!.at(-1)!;
    const frames = value.stacktrace!.frames;
    const top = frames.filter((f: Frame) => f.in_app).at(-1)!;
    const source = readFileSync(join(ROOT, THROWER), "utf8").split("\n");
    expect(top).toMatchObject({
      filename: THROWER,
      function: "Thrower",
      lineno: source.findIndex((l) => l.includes(THROW_LINE)) + 1,
      in_app: true,
    });
    expect(top.context_line?.trim()).toBe(THROW_LINE);
    expect(top.pre_context?.length).toBe(5);
    expect(top.post_context?.length).toBeGreaterThan(0);
    // The minified stack stays as the raw view: it named a Next.js chunk.
    expect(value.raw_stacktrace?.frames.some((f) => /\/_next\/static\/chunks\/[\w-]+\.js$/.test(f.abs_path ?? ""))).toBe(true);
    expect(event.errors ?? []).toEqual([]);

    await page.goto(`${server.url}/orgs/telltale-internal/issues/${row.issue_id}`);
    const frame = page.locator("[data-testid=frame]").first();
    expect(await frame.locator("summary").textContent()).toMatch(/Thrower in app\/debug\/client-error\/thrower\.tsx:\d+:\d+/);
    expect(await frame.locator(".line.current").textContent()).toContain(THROW_LINE);
    for (const width of [390, 1280]) {
      await page.setViewportSize({ width, height: 900 });
      await page.screenshot({ path: join(SHOTS, `own-maps-issue-${dialect}-${width}.png`), fullPage: true });
    }
    await page.close();
  });

  it("registers nothing again when restarted with the same build", async () => {
    const before = await ownBundles();
    await server.stop();
    server = await startServer({ ...store.env, TELLTALE_DEBUG_PAGES: "true" });
    await registered(server, /own source maps already registered/);
    expect(server.logs()).not.toContain("own source maps registered");
    expect(await ownBundles()).toEqual(before);
  });
});
