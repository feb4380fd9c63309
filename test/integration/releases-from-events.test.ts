import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Ctx } from "../../src/core/context";
import { digestBatch } from "../../src/core/digest/batch";
import { DEFAULT_ENVELOPE_LIMITS } from "../../src/core/envelope/index";
import { sentryCli } from "../support/clients";
import { openCliProject, type CliProject } from "../support/cli-project";
import { buildEnvelope, eventItem, newEventId } from "../support/envelopes";
import { DIALECTS } from "../support/stores";

/**
 * Issue 13, item 3: releases are created from events and sessions as they arrive (as Sentry
 * does), linked to the project, and listed by the real sentry-cli; versions Sentry refuses are not.
 */
describe.each(DIALECTS)("releases created from events on %s", (dialect) => {
  let bench: CliProject;
  let ctx: Ctx;

  beforeAll(async () => {
    bench = await openCliProject(dialect);
    ctx = bench.ctx;
  });
  afterAll(() => bench.close());

  async function send(items: Parameters<typeof buildEnvelope>[1]) {
    await bench.store.queue
      .insertInto("ingest_queue")
      .values({ project_id: bench.projectId, key_id: 0, endpoint: "envelope", received_at: Date.now(), body: buildEnvelope({}, items) })
      .execute();
    await digestBatch(ctx, { batchSize: 10, limits: DEFAULT_ENVELOPE_LIMITS });
  }

  it("creates the release an event names, once, linked to its project", async () => {
    for (let i = 0; i < 3; i++) await send([eventItem(newEventId(), "boom", { release: "shop@3.1.0" })]);
    const releases = await ctx.releases.releases(bench.orgId, { projectIds: [bench.projectId], limit: 10 });
    expect(releases.map((r) => r.version)).toEqual(["shop@3.1.0"]);
    const listed = await sentryCli(bench.api.base, bench.token, ["releases", "list", "--org", "acme", "--project", "web"]);
    expect(listed.code, listed.out).toBe(0);
    expect(listed.out).toContain("shop@3.1.0");
  });

  it("says in the API and in sentry-cli's list how many issues a release introduced and when its events came", async () => {
    const sentAt = Date.now();
    await send([eventItem(newEventId(), "another failure", { release: "shop@3.1.0", exception: undefined, logger: "checkout" })]);
    const api = await fetch(`${bench.api.base}/api/0/organizations/acme/releases/`, {
      headers: { authorization: `Bearer ${bench.token}` },
    });
    const [release] = (await api.json()) as {
      version: string;
      newGroups: number;
      firstEvent: string | null;
      lastEvent: string | null;
      projects: { newGroups: number }[];
    }[];
    expect(release).toMatchObject({ version: "shop@3.1.0", newGroups: 2, projects: [{ newGroups: 2 }] });
    expect(Date.parse(release!.firstEvent!)).toBeLessThanOrEqual(Date.parse(release!.lastEvent!));
    // The last event is the one just sent (times are kept to the second).
    expect(Date.parse(release!.lastEvent!)).toBeGreaterThanOrEqual(sentAt - 1000);
    const listed = await sentryCli(bench.api.base, bench.token, ["releases", "list", "--org", "acme", "--project", "web"]);
    expect(listed.code, listed.out).toBe(0);
    // Columns Released, Version, New Events (its new issues), Last Event.
    expect(listed.out).toMatch(/\| shop@3\.1\.0 \| 2 +\| \d+ seconds? ago/);
  });

  it("refuses to delete a release its issues still name, saying so, as Sentry does", async () => {
    const refused = await sentryCli(bench.api.base, bench.token, ["releases", "delete", "shop@3.1.0", "--org", "acme"]);
    expect(refused.code).not.toBe(0);
    expect(refused.out).toContain("This release is referenced by active issues and cannot be removed.");
    expect(await ctx.releases.release(bench.orgId, "shop@3.1.0")).not.toBeNull();
  });

  it("creates the release a session names", async () => {
    const session = {
      sid: newEventId(),
      did: "user-1",
      init: true,
      started: new Date().toISOString(),
      status: "ok",
      attrs: { release: "shop@3.2.0" },
    };
    await send([{ type: "session", payload: JSON.stringify(session) }]);
    expect(await ctx.releases.release(bench.orgId, "shop@3.2.0")).not.toBeNull();
    const refused = await sentryCli(bench.api.base, bench.token, ["releases", "delete", "shop@3.2.0", "--org", "acme"]);
    expect([refused.code === 0, refused.out]).toEqual([
      false,
      expect.stringContaining("This release has health data and cannot be removed."),
    ]);
  });

  it("leaves out versions Sentry refuses", async () => {
    // Events lose such a release in normalization; sessions keep theirs as counted, but no release is made of it.
    for (const release of ["latest", "feature/x"]) {
      const session = { sid: newEventId(), did: "user-2", init: true, started: new Date().toISOString(), status: "ok", attrs: { release } };
      await send([{ type: "session", payload: JSON.stringify(session) }]);
    }
    const counted = await bench.store.db
      .selectFrom("session_counts")
      .select("release")
      .where("release", "in", ["latest", "feature/x"])
      .execute();
    expect(counted.length).toBeGreaterThan(0);
    expect(await ctx.releases.release(bench.orgId, "latest")).toBeNull();
    expect(await ctx.releases.release(bench.orgId, "feature/x")).toBeNull();
  });
});
