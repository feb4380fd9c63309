import type { TestStore } from "./stores";
import { waitFor } from "./wait";

/** Waits until the digest step has emptied the ingest queue. */
export function queueDrained(store: TestStore, ms = 20_000): Promise<true> {
  return waitFor(
    async () => {
      const row = await store.queue
        .selectFrom("ingest_queue")
        .select((eb) => eb.fn.countAll<number>().as("n"))
        .executeTakeFirstOrThrow();
      return Number(row.n) === 0;
    },
    ms,
    "the digest queue to drain",
  );
}

export async function outcomesOf(store: TestStore, projectId: number) {
  const rows = await store.db
    .selectFrom("outcomes")
    .select(["category", "outcome", "reason"])
    .select((eb) => eb.fn.sum<number>("quantity").as("quantity"))
    .where("project_id", "=", projectId)
    .groupBy(["category", "outcome", "reason"])
    .execute();
  return rows.map((r) => ({ ...r, quantity: Number(r.quantity) }));
}

export function quantity(rows: Awaited<ReturnType<typeof outcomesOf>>, category: string, outcome: string, reason?: string): number {
  return rows
    .filter((r) => r.category === category && r.outcome === outcome && (reason === undefined || r.reason === reason))
    .reduce((s, r) => s + r.quantity, 0);
}
