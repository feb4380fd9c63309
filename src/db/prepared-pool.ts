/**
 * Named prepared statements for PostgreSQL's hot inserts. Kysely's driver sends every query
 * as an unnamed statement, which PostgreSQL parses and plans at each execution: for a
 * multi-row INSERT of large values (event payloads, queue bodies), planning copies every bound
 * value into the plan (its parameters become constants). `perf` on a backend inserting queue
 * bodies in groups of 128 had two thirds of its time in that copying: 3.3 s of backend CPU per
 * 20,000 of the bench corpus's envelopes, 1.2 s as a named statement; in groups of 1–64,
 * 1.47–1.52 s against 1.07 s (docs/benchmarks.md). The queue's
 * own writes have since moved to COPY (src/db/queue-copy.ts); the digest's inserts run here.
 *
 * A text registered here (the cached multi-row INSERTs of src/db/bulk-insert.ts) runs as a
 * named statement: node-postgres parses it once per connection, and with `plan_cache_mode =
 * force_generic_plan` (src/db/connect.ts) PostgreSQL plans it once, generically, reading the
 * parameters where they arrived. The set is bounded and never shrinks, so a name always stands
 * for the same text on every connection (node-postgres refuses one name for two texts) and
 * each connection holds at most `MAX_PREPARED` statements.
 */
import type { PostgresCursor, PostgresPool, PostgresPoolClient, PostgresQueryResult } from "kysely";
import type pg from "pg";
import { type CopiedTuple, copyOut, isBinaryCopyOut } from "./copy-out";

/** Texts run as named statements at most; later ones run unnamed, as before. */
export const MAX_PREPARED = 256;

const names = new Map<string, string>();

/** Runs `text` as a named prepared statement from now on (until MAX_PREPARED texts are). */
export function prepareOnPostgres(text: string): void {
  if (names.size >= MAX_PREPARED || names.has(text)) return;
  names.set(text, `telltale_${names.size + 1}`);
}

/** The statement name `text` runs under, if it is registered. */
export const preparedName = (text: string): string | undefined => names.get(text);

/** The connections Kysely gets: node-postgres's, with registered texts sent as named statements. */
export class PreparingPool implements PostgresPool {
  constructor(private readonly pool: pg.Pool) {}

  async connect(): Promise<PostgresPoolClient> {
    return new PreparingClient(await this.pool.connect());
  }

  end(): Promise<void> {
    return this.pool.end();
  }
}

class PreparingClient implements PostgresPoolClient {
  constructor(private readonly client: pg.PoolClient) {}

  query<R>(sql: string, parameters: ReadonlyArray<unknown>): Promise<PostgresQueryResult<R>>;
  query<R>(cursor: PostgresCursor<R>): PostgresCursor<R>;
  query<R>(sql: string | PostgresCursor<R>, parameters?: ReadonlyArray<unknown>): Promise<PostgresQueryResult<R>> | PostgresCursor<R> {
    // Kysely passes a cursor only for streamed queries, which need a `cursor` in the dialect's config (not set).
    if (typeof sql !== "string") throw new Error("streaming queries are not configured for PostgreSQL");
    if (isBinaryCopyOut(sql)) return this.copyOut(sql, parameters) as Promise<PostgresQueryResult<R>>;
    const values = [...(parameters ?? [])];
    const name = names.get(sql);
    const result = name ? this.client.query({ name, text: sql, values }) : this.client.query(sql, values);
    // node-postgres types `command` as a plain string, Kysely as the verbs it knows (the value is the same).
    return result as unknown as Promise<PostgresQueryResult<R>>;
  }

  /**
   * A binary `COPY (…) TO STDOUT`, which node-postgres's query path cannot run
   * (src/db/copy-out.ts): its tuples are the rows, each an array of its fields' bytes.
   */
  private async copyOut(sql: string, parameters: ReadonlyArray<unknown> | undefined): Promise<PostgresQueryResult<CopiedTuple>> {
    if (parameters && parameters.length > 0) throw new Error("COPY takes no parameters: its text must be complete");
    const rows = await copyOut(this.client, sql);
    return { command: "SELECT", rowCount: rows.length, rows };
  }

  release(): void {
    this.client.release();
  }
}
