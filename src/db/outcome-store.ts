import { sql, type Kysely } from "kysely";
import { hourlyOutcomes } from "../core/outcomes/record";
import type { FilteredCount, OutcomeCount, OutcomeRow, OutcomeStore, ProjectOutcomeRow } from "../core/ports/outcomes";
import type { DB } from "./schema";

/**
 * Adds counts in one statement on `db`, which may be a transaction the caller holds (the
 * digest writes a batch's outcomes with its events).
 */
export async function writeOutcomes(db: Kysely<DB>, counts: readonly OutcomeCount[]): Promise<void> {
  const rows = hourlyOutcomes(counts);
  if (rows.length === 0) return;
  await db
    .insertInto("outcomes")
    .values(
      rows.map((r) => ({
        project_id: r.projectId,
        hour: r.hour,
        category: r.category,
        outcome: r.outcome,
        reason: r.reason,
        quantity: r.quantity,
      })),
    )
    .onConflict((oc) =>
      oc
        .columns(["project_id", "hour", "category", "outcome", "reason"])
        .doUpdateSet({ quantity: sql`outcomes.quantity + excluded.quantity` }),
    )
    .execute();
}

/** OutcomeStore (src/core/ports/outcomes.ts) on the main database, the same SQL on both dialects. */
export class KyselyOutcomeStore implements OutcomeStore {
  constructor(private readonly db: Kysely<DB>) {}

  record(counts: readonly OutcomeCount[]): Promise<void> {
    return writeOutcomes(this.db, counts);
  }

  ofProject(projectId: number, since: number): Promise<OutcomeRow[]> {
    return this.db
      .selectFrom("outcomes")
      .select(["hour", "category", "outcome", "reason", "quantity"])
      .where("project_id", "=", projectId)
      .where("hour", ">=", since)
      .orderBy("hour")
      .orderBy("category")
      .orderBy("outcome")
      .orderBy("reason")
      .execute();
  }

  async ofProjects(projectIds: readonly number[], since: number, until: number): Promise<ProjectOutcomeRow[]> {
    if (projectIds.length === 0) return [];
    const rows = await this.db
      .selectFrom("outcomes")
      .select(["project_id", "hour", "category", "outcome", "reason", "quantity"])
      .where("project_id", "in", projectIds)
      .where("hour", ">=", since)
      .where("hour", "<", until)
      .orderBy("hour")
      .execute();
    return rows.map(({ project_id, ...r }) => ({ projectId: project_id, ...r }));
  }

  async filteredErrors(projectIds: readonly number[], since: number): Promise<FilteredCount[]> {
    if (projectIds.length === 0) return [];
    const rows = await this.db
      .selectFrom("outcomes")
      .select(["project_id", "reason"])
      .select((eb) => eb.fn.sum<number | string>("quantity").as("quantity"))
      .where("project_id", "in", projectIds)
      .where("category", "=", "error")
      .where("outcome", "=", "filtered")
      .where("hour", ">=", since)
      .groupBy(["project_id", "reason"])
      .execute();
    // PostgreSQL returns sum(bigint) as a numeric string.
    return rows.map((r) => ({ projectId: r.project_id, reason: r.reason, quantity: Number(r.quantity) }));
  }
}
