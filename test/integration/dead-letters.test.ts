import { afterAll, beforeAll, beforeEach, describe, expect, it, vi } from "vitest";
import { existsSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { sql } from "kysely";
import { deleteDeadLetter } from "../../src/core/deadletters/delete";
import { DEAD_LETTER_RETRY_DAYS } from "../../src/core/deadletters/expire";
import { listDeadLetters } from "../../src/core/deadletters/list";
import { retryDeadLetter } from "../../src/core/deadletters/retry";
import { digestBatch } from "../../src/core/digest/batch";
import type * as AssignModule from "../../src/core/issues/assign";
import type * as FilterModule from "../../src/core/filter/index";
import { runRetention } from "../../src/core/retention/run";
import { openDigestBench, DIGEST_OPTIONS, type DigestBench } from "../support/digest";
import { buildEnvelope, errorEnvelope, eventItem, newEventId } from "../support/envelopes";
import { outcomesOf, quantity } from "../support/ingest-db";
import { DIALECTS } from "../support/stores";

/** Poison the tests switch on: events whose message holds the marker fail where the hook says. */
const poison = vi.hoisted(() => ({ write: null as null | { marker: string; code: string }, cpu: null as null | string }));

vi.mock("../../src/core/issues/assign", async (importOriginal) => {
  const original = await importOriginal<typeof AssignModule>();
  return {
    ...original,
    assignIssues: async (...args: Parameters<typeof original.assignIssues>) => {
      const bad = poison.write;
      if (bad && args[1].some((g) => g.issue.title.includes(bad.marker))) {
        // As the database driver reports a refused row (PostgreSQL's SQLSTATE) or an outage.
        throw Object.assign(new Error(`simulated failure ${bad.code}`), { code: bad.code });
      }
      return original.assignIssues(...args);
    },
  };
});
vi.mock("../../src/core/filter/index", async (importOriginal) => {
  const original = await importOriginal<typeof FilterModule>();
  return {
    ...original,
    runInboundFilters: (...args: Parameters<typeof original.runInboundFilters>) => {
      const marker = poison.cpu;
      if (marker && JSON.stringify(args[0]).includes(marker)) throw new RangeError("simulated bug in a CPU stage");
      return original.runInboundFilters(...args);
    },
  };
});

describe.each(DIALECTS)("dead letters on %s", (dialect) => {
  let bench: DigestBench;
  let organizationId = 0;
  beforeAll(async () => {
    bench = await openDigestBench(dialect);
    const project = await bench.store.db
      .selectFrom("projects")
      .select("organization_id")
      .where("id", "=", bench.projectId)
      .executeTakeFirstOrThrow();
    organizationId = project.organization_id;
  });
  afterAll(async () => bench.store.cleanup());
  beforeEach(async () => {
    poison.write = null;
    poison.cpu = null;
    await bench.store.db.deleteFrom("dead_letters").execute();
  });

  /** Queues `n` events, the one at `at` carrying `marker`; returns their ids. */
  async function batchWith(marker: string, n = 10, at = 5): Promise<string[]> {
    const ids = Array.from({ length: n }, () => newEventId());
    await bench.enqueue(
      ...ids.map((id, i) => errorEnvelope(id, i === at ? `${marker} password=hunter2 card 4111 1111 1111 1111` : `fine ${i}`)),
    );
    return ids;
  }
  const stored = async (ids: string[]) =>
    (await bench.store.db.selectFrom("events").select("event_id").where("event_id", "in", ids).execute()).map((r) => r.event_id);

  it("sets aside only the envelope whose rows the database refuses; the rest of the batch is stored", async () => {
    const marker = `write-poison-${newEventId()}`;
    poison.write = { marker, code: "22P05" };
    const before = quantity(await outcomesOf(bench.store, bench.projectId), "error", "invalid", "dead_letter");
    const ids = await batchWith(marker);
    const told: number[] = [];
    expect(await digestBatch(bench.ctx, { ...DIGEST_OPTIONS, onSetAside: (n) => told.push(n) })).toBe(10);
    expect(told).toEqual([1]);
    expect((await stored(ids)).sort()).toEqual(ids.filter((_, i) => i !== 5).sort());
    const [letter, ...more] = await listDeadLetters({ ctx: bench.ctx, input: { organizationId } });
    expect(more).toEqual([]);
    expect(letter).toMatchObject({ projectSlug: "p", itemTypes: ["event"], reason: "write_failed: simulated failure 22P05" });
    expect(letter?.excerpt).toContain(marker);
    expect(letter?.excerpt).not.toContain("hunter2");
    expect(letter?.excerpt).not.toContain("4111 1111 1111 1111");
    expect(quantity(await outcomesOf(bench.store, bench.projectId), "error", "invalid", "dead_letter")).toBe(before + 1);
  });

  it("stores the other items of an envelope whose event the database refuses, and counts the event write_failed", async () => {
    const marker = `part-poison-${newEventId()}`;
    poison.write = { marker, code: "22P05" };
    const before = await outcomesOf(bench.store, bench.projectId);
    const id = newEventId();
    const slug = `beside-${newEventId().slice(0, 8)}`;
    await bench.enqueue(
      buildEnvelope({ event_id: id }, [
        eventItem(id, marker),
        { type: "check_in", payload: JSON.stringify({ check_in_id: newEventId(), monitor_slug: slug, status: "ok" }) },
      ]),
    );
    await bench.drain();
    expect(await stored([id])).toEqual([]);
    expect(await bench.store.db.selectFrom("check_ins").select("id").where("monitor_slug", "=", slug).execute()).toHaveLength(1);
    expect(await listDeadLetters({ ctx: bench.ctx, input: { organizationId } })).toEqual([]);
    const after = await outcomesOf(bench.store, bench.projectId);
    expect(quantity(after, "error", "invalid", "write_failed")).toBe(quantity(before, "error", "invalid", "write_failed") + 1);
    expect(quantity(after, "error", "accepted")).toBe(quantity(before, "error", "accepted"));
    expect(quantity(after, "monitor", "accepted")).toBe(quantity(before, "monitor", "accepted") + 1);
  });

  it("sets aside an envelope whose processing throws; the rest of the batch is stored", async () => {
    const marker = `cpu-poison-${newEventId()}`;
    poison.cpu = marker;
    const ids = await batchWith(marker);
    await bench.drain();
    expect(await stored(ids)).toHaveLength(9);
    const letters = await listDeadLetters({ ctx: bench.ctx, input: { organizationId } });
    expect(letters.map((l) => l.reason)).toEqual(["digest_failed: simulated bug in a CPU stage"]);
  });

  it("retries the whole batch and sets nothing aside when the database itself fails", async () => {
    const marker = `outage-${newEventId()}`;
    poison.write = { marker, code: "ECONNRESET" };
    const ids = await batchWith(marker);
    await expect(digestBatch(bench.ctx, DIGEST_OPTIONS)).rejects.toThrow("simulated failure ECONNRESET");
    expect(await stored(ids)).toEqual([]);
    poison.write = null;
    await bench.drain();
    expect(await stored(ids)).toHaveLength(10);
    expect(await listDeadLetters({ ctx: bench.ctx, input: { organizationId } })).toEqual([]);
  });

  it("counts and drops an envelope whose project was deleted while it waited (SQLite), and goes on", async () => {
    const { createProject } = await import("../../src/core/projects/create-project");
    const org = await bench.store.db.selectFrom("organizations").select("slug").where("id", "=", organizationId).executeTakeFirstOrThrow();
    const { project } = await createProject({ ctx: bench.ctx, input: { org: org.slug, slug: `gone-${newEventId().slice(0, 8)}` } });
    await bench.store.queue
      .insertInto("ingest_queue")
      .values({
        project_id: project.id,
        key_id: 0,
        endpoint: "envelope",
        received_at: Date.now(),
        body: errorEnvelope(newEventId(), "orphan"),
      })
      .execute();
    await bench.store.db.deleteFrom("projects").where("id", "=", project.id).execute();
    await bench.drain();
    // PostgreSQL deletes queued envelopes with their project (foreign key); SQLite's queue file cannot.
    expect(quantity(await outcomesOf(bench.store, project.id), "default", "invalid", "dead_letter_refused")).toBe(
      dialect === "sqlite" ? 1 : 0,
    );
    expect(await bench.legitimateEventStored()).toBe(true);
  });

  it("keeps at most 4 KB of a large body, scrubbed", async () => {
    const marker = `large-${newEventId()}`;
    poison.write = { marker, code: "23505" };
    const id = newEventId();
    await bench.enqueue(errorEnvelope(id, `${marker} ${"x".repeat(20_000)}`, { auth: "Bearer abcdef0123456789abcdef" }));
    await bench.drain();
    const [letter] = await listDeadLetters({ ctx: bench.ctx, input: { organizationId } });
    expect(letter?.size).toBeGreaterThan(20_000);
    expect(letter?.excerpt.length).toBeLessThanOrEqual(4096);
    expect(letter?.excerpt).not.toContain("abcdef0123456789abcdef");
  });

  it("stores a retried dead letter once its cause is gone, and forgets it", async () => {
    const marker = `retry-${newEventId()}`;
    poison.write = { marker, code: "22021" };
    const ids = await batchWith(marker, 1, 0);
    await bench.drain();
    const [letter] = await listDeadLetters({ ctx: bench.ctx, input: { organizationId } });
    poison.write = null;
    await retryDeadLetter({ ctx: bench.ctx, input: { organizationId, id: letter?.id ?? -1 } });
    await bench.drain();
    expect(await stored(ids)).toEqual(ids);
    expect(await listDeadLetters({ ctx: bench.ctx, input: { organizationId } })).toEqual([]);
  });

  it("deletes a dead letter, and reports one of another organization as missing", async () => {
    const marker = `delete-${newEventId()}`;
    poison.write = { marker, code: "22021" };
    await batchWith(marker, 1, 0);
    await bench.drain();
    const [letter] = await listDeadLetters({ ctx: bench.ctx, input: { organizationId } });
    const id = letter?.id ?? -1;
    await expect(deleteDeadLetter({ ctx: bench.ctx, input: { organizationId: organizationId + 1000, id } })).rejects.toMatchObject({
      code: "not_found",
    });
    await expect(retryDeadLetter({ ctx: bench.ctx, input: { organizationId: organizationId + 1000, id } })).rejects.toMatchObject({
      code: "not_found",
    });
    await deleteDeadLetter({ ctx: bench.ctx, input: { organizationId, id } });
    expect(await bench.store.db.selectFrom("dead_letters").select("id").execute()).toEqual([]);
  });

  it("empties a week-old dead letter's raw body (secrets and all), keeps its excerpt, and refuses to retry it", async () => {
    const marker = `expire-${newEventId()}`;
    const secret = `sk_live_${newEventId()}`;
    poison.write = { marker, code: "22021" };
    // Under a key the excerpt's scrubbing knows, so that the only copy in the clear is the body.
    await bench.enqueue(errorEnvelope(newEventId(), `${marker} ${`password=${secret} `.repeat(400)}`));
    await batchWith(marker, 1, 0);
    await bench.drain();
    poison.write = null;
    const letters = await bench.store.db.selectFrom("dead_letters").select(["id", "body"]).orderBy("id").execute();
    expect(letters).toHaveLength(2);
    expect(Buffer.from(letters[0]!.body).toString()).toContain(secret);
    const old = Date.now() - (DEAD_LETTER_RETRY_DAYS * 86_400_000 + 60_000);
    await bench.store.db.updateTable("dead_letters").set({ created_at: old }).where("id", "=", letters[0]!.id).execute();
    const { deleted } = await runRetention(bench.ctx, { days: 90, maxEventsPerIssue: 1000, batch: 100 });
    expect(deleted.dead_letter_bodies).toBe(1);

    const after = await bench.store.db.selectFrom("dead_letters").select(["id", "body", "size", "excerpt"]).orderBy("id").execute();
    expect(after.map((r) => r.body.length)).toEqual([0, letters[1]!.body.length]);
    expect(after[0]!.size).toBe(letters[0]!.body.length);
    expect(after[0]!.excerpt).toContain(marker);
    expect(after[0]!.excerpt).not.toContain(secret);
    const listed = await listDeadLetters({ ctx: bench.ctx, input: { organizationId } });
    expect(listed.map((l) => [l.id, l.retryable])).toEqual([
      [after[1]!.id, true],
      [after[0]!.id, false],
    ]);
    await expect(retryDeadLetter({ ctx: bench.ctx, input: { organizationId, id: after[0]!.id } })).rejects.toMatchObject({
      code: "conflict",
    });
    // The newer one is still retried as received.
    await retryDeadLetter({ ctx: bench.ctx, input: { organizationId, id: after[1]!.id } });
    if (dialect === "sqlite") {
      // Zeroed, not left on the freelist: once the WAL is copied in, the file holds no copy.
      await sql`pragma wal_checkpoint(TRUNCATE)`.execute(bench.store.db);
      const file = join(bench.store.env.TELLTALE_DATA_DIR!, "telltale.sqlite");
      for (const path of [file, `${file}-wal`]) expect(existsSync(path) && readFileSync(path).includes(secret)).toBe(false);
    }
  });

  it("deletes dead letters past retention, body and all, and keeps newer ones", async () => {
    const marker = `old-${newEventId()}`;
    poison.write = { marker, code: "22021" };
    await batchWith(marker, 2, 0);
    await batchWith(marker, 2, 1);
    await bench.drain();
    const letters = await bench.store.db.selectFrom("dead_letters").select("id").orderBy("id").execute();
    expect(letters).toHaveLength(2);
    await bench.store.db
      .updateTable("dead_letters")
      .set({ created_at: Date.now() - 91 * 86_400_000 })
      .where("id", "=", letters[0]?.id ?? -1)
      .execute();
    const { deleted } = await runRetention(bench.ctx, { days: 90, maxEventsPerIssue: 1000, batch: 100 });
    expect(deleted.dead_letters).toBe(1);
    expect((await bench.store.db.selectFrom("dead_letters").select("id").execute()).map((r) => r.id)).toEqual([letters[1]?.id]);
  });
});
