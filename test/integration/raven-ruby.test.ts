import { execFile, execFileSync } from "node:child_process";
import { join } from "node:path";
import { promisify } from "node:util";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Ctx } from "../../src/core/context";
import { createOrganization } from "../../src/core/orgs/create-org";
import { setLogLevel } from "../../src/server/log";
import { startFront, type TestFront } from "../support/front";
import { projectGuide, storedIssues } from "../support/guides";
import { DIALECTS, openTestStore, testCtx, type TestStore } from "../support/stores";

const run = promisify(execFile);
const CLIENT = join(import.meta.dirname, "..", "fixtures", "clients", "raven_client.rb");

/** Debian's ruby with ruby-sentry-raven, which .ci/run installs; the current sentry-ruby gem is not installable here. */
function ravenPresent(): boolean {
  try {
    execFileSync("ruby", ["-e", 'require "raven"'], { stdio: "ignore" });
    return true;
  } catch {
    return false;
  }
}
const RAVEN = ravenPresent();
if (!RAVEN) console.warn("raven-ruby.test.ts skipped: ruby with sentry-raven is absent (apt-get install ruby ruby-sentry-raven)");

/**
 * Compatibility with the legacy Ruby client only: the Ruby guide shows sentry-ruby, which this
 * test does not run, so that guide stays "not verified here".
 */
describe.skipIf(!RAVEN).each(DIALECTS)("the legacy Raven client (Debian's ruby-sentry-raven 3.1) through /store/, on %s", (dialect) => {
  let store: TestStore;
  let ctx: Ctx;
  let front: TestFront;

  beforeAll(async () => {
    setLogLevel("warn");
    store = await openTestStore(dialect);
    ctx = testCtx(store);
    front = await startFront(ctx);
    await createOrganization({ ctx, input: { slug: "raven" } });
  });

  afterAll(async () => {
    await front?.close();
    await store?.cleanup();
  });

  it("stores Raven's exception, with its Ruby stack, and its message as issues at Raven's own timestamps", async () => {
    const { projectId, dsn, guide } = await projectGuide(ctx, front.base, "raven", "ruby", "ruby");
    // The Ruby page says this test's scope: sentry-ruby not verified, Raven's events stored.
    expect(guide.verified).toBe("no");
    expect(guide.note).toContain("legacy Raven client (sentry-raven 3.1)");
    // Raven's defaults: base64 of zlib-deflated JSON, X-Sentry-Auth, a timestamp without a zone (UTC).
    const { stdout } = await run("ruby", [CLIENT, dsn], { timeout: 60_000 });
    const sent = stdout
      .trim()
      .split("\n")
      .map((line) => line.split(" "));
    expect(sent).toHaveLength(2);

    const issues = await storedIssues(store, ctx, projectId);
    expect(issues.map((i) => [i.title, i.level, i.platform])).toEqual([
      ["ArgumentError: cart [] is empty", "error", "ruby"],
      ["Raven says hello", "warning", "ruby"],
    ]);
    expect(issues[0]!.exceptionType).toBe("ArgumentError");
    // Innermost frame last, as Sentry orders them: the fixture's `checkout`, marked in-app.
    expect(issues[0]!.frames.at(-1)).toMatchObject({ function: "checkout", in_app: true });
    expect(issues[0]!.frames.at(-1)!.filename).toMatch(/raven_client\.rb$/);

    const events = await store.db
      .selectFrom("events")
      .select(["event_id", "timestamp"])
      .where("project_id", "=", projectId)
      .orderBy("id")
      .execute();
    expect(events.map((e) => [e.event_id, Number(e.timestamp)])).toEqual(sent.map(([id, at]) => [id, Date.parse(`${at}Z`) / 1000]));
  });
});
