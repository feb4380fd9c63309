import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createProject } from "../../src/core/projects/create-project";
import { attachmentDownload, eventAttachments } from "../../src/core/issues/attachments";
import { isSetUp } from "../../src/core/accounts/is-set-up";
import { createUser } from "../../src/core/accounts/create-user";
import { eventInProject } from "../../src/core/issues/queries";
import { buildEnvelope, eventItem, newEventId } from "../support/envelopes";
import { openDigestBench, type DigestBench } from "../support/digest";
import { DIALECTS } from "../support/stores";

/**
 * The issue page's and the API's event reads through core on digested events, on both
 * databases: lookup by id in either spelling and nothing from another project, an event's
 * attachments (listed and streamed, for the page and the API alike) and the user count the
 * first-run redirect reads. The reader's own order, pages and neighbours are its contract suite
 * (test/contracts/telemetry-read.ts).
 */
describe.each(DIALECTS)("event reads through the telemetry reader on %s", (dialect) => {
  let bench: DigestBench;
  const ids: string[] = [];
  beforeAll(async () => {
    bench = await openDigestBench(dialect);
    const base = Date.now() / 1000 - 600;
    for (const offset of [0, 60, 120, 180]) {
      const id = newEventId();
      ids.push(id);
      await bench.enqueue(buildEnvelope({ event_id: id }, [eventItem(id, "Reads go through the port", { timestamp: base + offset })]));
    }
    await bench.drain();
  });
  afterAll(() => bench.store.cleanup());

  it("looks an event up by id with dashes and in upper case, only within its project", async () => {
    const id = ids[1]!;
    const dashed = `${id.slice(0, 8)}-${id.slice(8, 12)}-${id.slice(12, 16)}-${id.slice(16, 20)}-${id.slice(20)}`.toUpperCase();
    expect((await eventInProject(bench.ctx, bench.projectId, dashed)).event_id).toBe(id);
    const org = await bench.store.db
      .selectFrom("projects")
      .innerJoin("organizations", "organizations.id", "projects.organization_id")
      .select("organizations.slug")
      .where("projects.id", "=", bench.projectId)
      .executeTakeFirstOrThrow();
    const other = await createProject({ ctx: bench.ctx, input: { org: org.slug, slug: "other" } });
    await expect(eventInProject(bench.ctx, other.project.id, id)).rejects.toThrow(/does not exist/);
  });

  it("lists an event's complete attachments and streams one chunk by chunk, only within its project", async () => {
    const eventId = ids[2]!;
    const add = async (name: string, chunks: Buffer[], complete: 0 | 1) => {
      const row = await bench.store.db
        .insertInto("attachments")
        .values({
          project_id: bench.projectId,
          event_id: eventId,
          name,
          content_type: "text/plain",
          attachment_type: "event.attachment",
          size: chunks.reduce((n, c) => n + c.length, 0),
          complete,
          created_at: Date.now(),
        })
        .returning("id")
        .executeTakeFirstOrThrow();
      for (const [seq, data] of chunks.entries())
        await bench.store.db.insertInto("attachment_chunks").values({ attachment_id: row.id, seq, data }).execute();
      return row.id;
    };
    const done = await add("log.txt", [Buffer.from("first "), Buffer.from("second")], 1);
    const partial = await add("half.txt", [Buffer.from("half")], 0);
    const dashed = `${eventId.slice(0, 8)}-${eventId.slice(8, 12)}-${eventId.slice(12, 16)}-${eventId.slice(16, 20)}-${eventId.slice(20)}`;
    expect(await eventAttachments(bench.ctx, bench.projectId, dashed.toUpperCase())).toEqual([
      { id: done, name: "log.txt", size: 12, content_type: "text/plain" },
    ]);
    const download = await attachmentDownload(bench.ctx, bench.projectId, eventId, done);
    const parts: string[] = [];
    for await (const chunk of download.chunks) parts.push(chunk.toString());
    expect(parts).toEqual(["first ", "second"]);
    await expect(attachmentDownload(bench.ctx, bench.projectId, eventId, partial)).rejects.toThrow(/not found/);
    await expect(attachmentDownload(bench.ctx, bench.projectId + 1000, eventId, done)).rejects.toThrow(/not found/);
    await expect(attachmentDownload(bench.ctx, bench.projectId, ids[3]!, done)).rejects.toThrow(/not found/);
  });

  it("counts users through the account store, and is set up once there is one", async () => {
    const rows = await bench.store.db.selectFrom("users").select("id").execute();
    expect(rows.length).toBeGreaterThan(0);
    expect(await bench.ctx.accounts.countUsers()).toBe(rows.length);
    await createUser({ ctx: bench.ctx, input: { email: "another@example.com", password: "password-123" } });
    expect(await bench.ctx.accounts.countUsers()).toBe(rows.length + 1);
    expect(await isSetUp(bench.ctx)).toBe(true);
  });
});
