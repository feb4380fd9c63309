import { createHash } from "node:crypto";
import { mkdirSync, readdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { expect } from "vitest";
import { createProject } from "../../src/core/projects/create-project";
import { DEFAULT_ENVELOPE_LIMITS, parseEnvelope, type EnvelopeItem } from "../../src/core/envelope/index";
import { decodePayload } from "../../src/core/storage/payload";
import type { NormalizedEvent } from "../../src/core/normalize/types";
import { isoOrUndefined } from "../../src/core/time-text";
import { serializeEvent } from "../../src/server/api/serialize-event";
import type { DigestBench } from "./digest";

/** An item that must leave a trace: anything but a client report or a container with no entries. */
function mustBeCounted(item: EnvelopeItem): boolean {
  if (item.header.knownType === "client_report") return false;
  if (item.header.knownType !== "log" && item.header.knownType !== "span") return true;
  try {
    const parsed = JSON.parse(item.payload.toString("utf8")) as unknown;
    const items = typeof parsed === "object" && parsed !== null && "items" in parsed ? parsed.items : undefined;
    return !(Array.isArray(items) && items.length === 0);
  } catch {
    return true;
  }
}

/** Whether the digest must account for this envelope: it does not parse, or it holds an item that must be counted. */
function mustBeAccounted(body: Buffer): boolean {
  try {
    return parseEnvelope(body, DEFAULT_ENVELOPE_LIMITS).items.some(mustBeCounted);
  } catch {
    return true;
  }
}

let projects = 0;

/**
 * The fuzz suites' invariant. Each body is queued for a project of its own, so what became of
 * it can be told apart: after the digest returns (it must, within a bounded number of batches,
 * and without throwing), every envelope has an outcome (stored, filtered or invalid, with its
 * reason), a dead letter or a stored raw item; the queue is empty; and an ordinary event sent
 * afterwards is stored.
 */
export async function expectEveryEnvelopeAccounted(bench: DigestBench, bodies: readonly Buffer[]): Promise<void> {
  const org = await bench.store.db
    .selectFrom("organizations")
    .innerJoin("projects", "projects.organization_id", "organizations.id")
    .select("organizations.slug")
    .where("projects.id", "=", bench.projectId)
    .executeTakeFirstOrThrow();
  const ids: number[] = [];
  for (const body of bodies) {
    const { project } = await createProject({ ctx: bench.ctx, input: { org: org.slug, slug: `fz${++projects}` } });
    ids.push(project.id);
    await bench.store.queue
      .insertInto("ingest_queue")
      .values({ project_id: project.id, key_id: 0, endpoint: "envelope", received_at: Date.now(), body })
      .execute();
  }
  await bench.drain(100);
  expect(
    Number(
      (
        await bench.store.queue
          .selectFrom("ingest_queue")
          .select((eb) => eb.fn.countAll<number>().as("n"))
          .executeTakeFirstOrThrow()
      ).n,
    ),
  ).toBe(0);
  for (const [i, body] of bodies.entries()) {
    const projectId = ids[i] ?? -1;
    if (!mustBeAccounted(body)) continue;
    const count = async (table: "outcomes" | "dead_letters" | "raw_items") =>
      Number(
        (
          await bench.store.db
            .selectFrom(table)
            .select((eb) => eb.fn.countAll<number>().as("n"))
            .where("project_id", "=", projectId)
            .executeTakeFirstOrThrow()
        ).n,
      );
    const traces = (await count("outcomes")) + (await count("dead_letters")) + (await count("raw_items"));
    expect(
      traces,
      `envelope ${i} (${body.subarray(0, 200).toString("utf8")}…) left no outcome, dead letter or stored item`,
    ).toBeGreaterThan(0);
  }
  // A dead letter always says why, and shows no more than a storable, bounded excerpt.
  const letters = ids.length
    ? await bench.store.db.selectFrom("dead_letters").select(["reason", "excerpt"]).where("project_id", "in", ids).execute()
    : [];
  for (const letter of letters) {
    expect(letter.reason).not.toBe("");
    expect(letter.excerpt.length).toBeLessThanOrEqual(4096);
    expect(letter.excerpt).not.toMatch(/[\0\ud800-\udfff]/);
  }
  expect(await bench.legitimateEventStored()).toBe(true);
}

/**
 * Every time the bench project stored is one a `Date` holds (a page printing it with
 * `toISOString` would not throw): event, transaction, span and log times, the event's own
 * breadcrumb and span times, session hours and buckets; and the API reads each issue's latest
 * event back without throwing.
 */
export async function expectStoredTimesReadable(bench: DigestBench): Promise<void> {
  const db = bench.store.db;
  const project = bench.projectId;
  const bad: string[] = [];
  const seconds = (where: string, values: readonly (number | string | null | undefined)[]) => {
    for (const v of values) if (v != null && isoOrUndefined(Number(v) * 1000) === undefined) bad.push(`${where}: ${v}`);
  };
  const millis = (where: string, values: readonly (number | string)[]) =>
    seconds(
      where,
      values.map((v) => Number(v) / 1000),
    );
  for (const row of await db.selectFrom("events").select(["timestamp", "data"]).where("project_id", "=", project).execute()) {
    const event = JSON.parse(decodePayload(row.data)) as NormalizedEvent;
    seconds("events.timestamp", [row.timestamp, event.timestamp, event.start_timestamp]);
    seconds("event breadcrumbs", event.breadcrumbs?.values.map((c) => c.timestamp) ?? []);
    seconds("event spans", event.spans?.flatMap((s) => [s.start_timestamp, s.timestamp]) ?? []);
  }
  const times = await db.selectFrom("transactions").select(["start_timestamp", "timestamp"]).where("project_id", "=", project).execute();
  seconds(
    "transactions",
    times.flatMap((t) => [t.start_timestamp, t.timestamp]),
  );
  const spans = await db.selectFrom("spans").select(["start_timestamp", "timestamp"]).where("project_id", "=", project).execute();
  seconds(
    "spans",
    spans.flatMap((t) => [t.start_timestamp, t.timestamp]),
  );
  seconds(
    "logs",
    (await db.selectFrom("logs").select("timestamp").where("project_id", "=", project).execute()).map((l) => l.timestamp),
  );
  millis(
    "session_counts.hour",
    (await db.selectFrom("session_counts").select("hour").where("project_id", "=", project).execute()).map((r) => r.hour),
  );
  millis(
    "session_distinct.bucket",
    (await db.selectFrom("session_distinct").select("bucket").where("project_id", "=", project).execute()).map((r) => r.bucket),
  );
  expect(bad).toEqual([]);
  for (const issue of await db.selectFrom("issues").select("id").where("project_id", "=", project).execute()) {
    const latest = await bench.ctx.telemetry.issueEventAt(issue.id, "latest");
    if (latest) expect(() => serializeEvent(latest, "p")).not.toThrow();
  }
}

/** Where failing fuzz inputs are kept, one JSON file each, replayed by fuzz-regressions.test.ts. */
export const REGRESSIONS_DIR = join(__dirname, "..", "fixtures", "fuzz-regressions");

export interface RegressionCase {
  /** What the case is about: the finding, or the seed that found it. */
  description: string;
  /** Envelope bodies, base64: raw bytes survive JSON that way, NUL and broken UTF-8 included. */
  envelopes: string[];
}

/** Keeps a failing input as a regression case (named by its content, so saving it twice is harmless). */
export function saveRegression(description: string, bodies: readonly Buffer[]): string {
  const envelopes = bodies.map((b) => b.toString("base64"));
  const name = `found-${createHash("sha256").update(envelopes.join(",")).digest("hex").slice(0, 12)}.json`;
  mkdirSync(REGRESSIONS_DIR, { recursive: true });
  writeFileSync(join(REGRESSIONS_DIR, name), `${JSON.stringify({ description, envelopes } satisfies RegressionCase, null, 1)}\n`);
  return name;
}

export function loadRegressions(): { name: string; description: string; bodies: Buffer[] }[] {
  return readdirSync(REGRESSIONS_DIR)
    .filter((f) => f.endsWith(".json"))
    .sort()
    .map((name) => {
      const c = JSON.parse(readFileSync(join(REGRESSIONS_DIR, name), "utf8")) as RegressionCase;
      return { name, description: c.description, bodies: c.envelopes.map((e) => Buffer.from(e, "base64")) };
    });
}
