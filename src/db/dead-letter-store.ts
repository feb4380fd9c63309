import type { Kysely } from "kysely";
import { deadLetterRecord, type DeadLetter } from "../core/deadletters/record";
import type { OutcomeCount } from "../core/outcomes/record";
import { writeOutcomes } from "./outcome-store";
import type { DeadLetterStore, DeadLetterSummary, HeldDeadLetter, NewDeadLetter } from "../core/ports/dead-letters";
import type { Dialect } from "./connect";
import type { DB, QueueDB } from "./schema";

async function writeDeadLetter(db: Kysely<DB>, letter: NewDeadLetter, outcomes: readonly OutcomeCount[]): Promise<void> {
  await db
    .insertInto("dead_letters")
    .values({
      project_id: letter.projectId,
      key_id: letter.keyId,
      received_at: letter.receivedAt,
      created_at: letter.createdAt,
      item_types: letter.itemTypes,
      size: letter.size,
      reason: letter.reason,
      excerpt: letter.excerpt,
      body: Buffer.from(letter.body),
    })
    .execute();
  await writeOutcomes(db, outcomes);
}

/**
 * Stores a dead letter and counts its items in a transaction the caller holds: the digest's
 * (src/core/digest/write.ts), where a failure retries the whole batch later.
 */
export function recordDeadLetterIn(trx: Kysely<DB>, letter: DeadLetter, now: number): Promise<void> {
  const { row, outcomes } = deadLetterRecord(letter, now);
  return writeDeadLetter(trx, row, outcomes);
}

/** Dead letters over both dialects; `queue` is where a retried envelope goes (a file of its own on SQLite). */
export class KyselyDeadLetterStore implements DeadLetterStore {
  constructor(
    private readonly db: Kysely<DB>,
    private readonly queue: Kysely<QueueDB>,
    private readonly dialect: Dialect,
  ) {}

  record(letter: NewDeadLetter, outcomes: readonly OutcomeCount[]): Promise<void> {
    return this.db.transaction().execute((trx) => writeDeadLetter(trx, letter, outcomes));
  }

  async list(organizationId: number, limit: number): Promise<DeadLetterSummary[]> {
    const rows = await this.db
      .selectFrom("dead_letters")
      .innerJoin("projects", "projects.id", "dead_letters.project_id")
      .select([
        "dead_letters.id",
        "projects.slug",
        "dead_letters.item_types",
        "dead_letters.size",
        "dead_letters.reason",
        "dead_letters.excerpt",
        "dead_letters.received_at",
        "dead_letters.created_at",
        (eb) => eb.fn<number>("length", ["dead_letters.body"]).as("body_bytes"),
      ])
      .where("projects.organization_id", "=", organizationId)
      .orderBy("dead_letters.created_at", "desc")
      .orderBy("dead_letters.id", "desc")
      .limit(limit)
      .execute();
    return rows.map((r) => ({
      id: r.id,
      projectSlug: r.slug,
      itemTypes: r.item_types === "" ? [] : r.item_types.split(","),
      size: r.size,
      reason: r.reason,
      excerpt: r.excerpt,
      receivedAt: r.received_at,
      createdAt: r.created_at,
      retryable: Number(r.body_bytes) > 0,
    }));
  }

  async find(organizationId: number, id: number): Promise<HeldDeadLetter | null> {
    const row = await this.db
      .selectFrom("dead_letters")
      .innerJoin("projects", "projects.id", "dead_letters.project_id")
      .select(["dead_letters.id", "dead_letters.project_id", "dead_letters.key_id", "dead_letters.received_at", "dead_letters.body"])
      .where("dead_letters.id", "=", id)
      .where("projects.organization_id", "=", organizationId)
      .executeTakeFirst();
    return row ? { id: row.id, projectId: row.project_id, keyId: row.key_id, receivedAt: row.received_at, body: row.body } : null;
  }

  async requeue(letter: HeldDeadLetter): Promise<void> {
    const queued = {
      project_id: letter.projectId,
      key_id: letter.keyId,
      endpoint: "envelope" as const,
      received_at: letter.receivedAt,
      body: Buffer.from(letter.body.buffer, letter.body.byteOffset, letter.body.byteLength),
    };
    if (this.dialect === "postgres") {
      await this.db.transaction().execute(async (trx) => {
        await trx.insertInto("ingest_queue").values(queued).execute();
        await trx.deleteFrom("dead_letters").where("id", "=", letter.id).execute();
      });
      return;
    }
    await this.queue.insertInto("ingest_queue").values(queued).execute();
    await this.delete(letter.id);
  }

  async delete(id: number): Promise<void> {
    await this.db.deleteFrom("dead_letters").where("id", "=", id).execute();
  }
}
