/**
 * Multi-row INSERTs whose SQL is built by Kysely once per shape and then reused: the digest
 * writes the same few statements for every batch (events, spans, issue tags, counters), and
 * building and compiling a 200-row statement's syntax tree each time cost 8–11 % of the
 * digest's CPU (docs/benchmarks.md). The statement is still
 * Kysely's, typed by the table's columns; only its text is remembered, by table, column list,
 * conflict clause and row count. Rows go in chunks whose sizes are powers of two (at most
 * `MAX_CHUNK`), so a table has at most nine shapes per column list.
 */
import { CompiledQuery, PostgresAdapter, type Insertable, type InsertQueryBuilder, type InsertResult, type Kysely } from "kysely";
import { prepareOnPostgres } from "./prepared-pool";
import type { DB } from "./schema";

/** Rows in the largest statement: SQLite takes 32,766 parameters, the widest table has 13 columns. */
export const MAX_CHUNK = 256;

/** What is added to the INSERT after its rows (an ON CONFLICT clause), named for the cache. */
export interface ConflictClause<T extends keyof D, D = DB> {
  /** Names the clause: two different clauses on one table must have different names. */
  name: string;
  apply: (query: InsertQueryBuilder<D, T, InsertResult>) => InsertQueryBuilder<D, T, InsertResult>;
}

/**
 * Statement texts by dialect (the adapter's class: SQLite's and PostgreSQL's texts differ) and
 * shape; a shape whose parameters do not follow the rows is `null` (never cached).
 */
const textsByDialect = new WeakMap<object, Map<string, string | null>>();

function textsFor<D>(db: Kysely<D>): Map<string, string | null> {
  const dialect = db.getExecutor().adapter.constructor;
  let texts = textsByDialect.get(dialect);
  if (!texts) {
    texts = new Map();
    textsByDialect.set(dialect, texts);
  }
  return texts;
}

/** Shapes remembered at most: emptied when full (it only costs compiling again). */
const MAX_SHAPES = 512;

/** The chunk sizes for `n` rows: powers of two, largest first (200 → 128, 64, 8). */
export function chunkSizes(n: number): number[] {
  const sizes: number[] = [];
  let left = n;
  while (left > 0) {
    let size = MAX_CHUNK;
    while (size > left) size >>= 1;
    sizes.push(size);
    left -= size;
  }
  return sizes;
}

/** The chunk sizes for `n` rows when every row count is a shape of its own: MAX_CHUNK, …, the rest. */
export function exactSizes(n: number): number[] {
  const sizes: number[] = [];
  for (let left = n; left > 0; left -= MAX_CHUNK) sizes.push(Math.min(left, MAX_CHUNK));
  return sizes;
}

/** Whether Kysely makes SQL of the value rather than a parameter (`sql`…``, a subquery). */
const isExpression = (v: unknown) =>
  (typeof v === "object" || typeof v === "function") &&
  v !== null &&
  typeof (v as { toOperationNode?: unknown }).toOperationNode === "function";

/**
 * The rows' values in column order, or null when a row's columns are not exactly `columns`
 * or a value is `undefined` (Kysely writes DEFAULT for it) or an expression (Kysely writes
 * its SQL): values a remembered text could not bind.
 */
function parametersOf(rows: readonly object[], columns: readonly string[]): unknown[] | null {
  const out: unknown[] = [];
  for (const row of rows) {
    const record = row as Record<string, unknown>;
    if (Object.keys(record).length !== columns.length) return null;
    for (const c of columns) {
      const v = record[c];
      if (v === undefined || isExpression(v)) return null;
      out.push(v);
    }
  }
  return out;
}

const sameParameters = (a: readonly unknown[], b: readonly unknown[]) => a.length === b.length && a.every((v, i) => v === b[i]);

async function insertChunk<D, T extends keyof D & string>(
  db: Kysely<D>,
  table: T,
  rows: readonly Insertable<D[T]>[],
  conflict: ConflictClause<T, D> | undefined,
): Promise<void> {
  const build = () => {
    // Kysely cannot relate a generic table's row type to its `values` overloads; the rows are typed above.
    const query = db.insertInto(table).values(rows as never);
    return conflict ? conflict.apply(query) : query;
  };
  const columns = Object.keys(rows[0]!);
  const parameters = parametersOf(rows, columns);
  if (parameters === null) return void (await build().execute());
  const texts = textsFor(db);
  const shape = `${table}\u0000${columns.join(",")}\u0000${conflict?.name ?? ""}\u0000${rows.length}`;
  const text = texts.get(shape);
  if (text === null) return void (await build().execute());
  if (text !== undefined) return void (await db.executeQuery(CompiledQuery.raw(text, parameters)));
  // First time for this shape: Kysely builds it, and its text is kept only if its parameters
  // are exactly the rows' values in column order (the order the cached text binds them in).
  const compiled = build().compile();
  if (texts.size >= MAX_SHAPES) texts.clear();
  const reusable = sameParameters(compiled.parameters, parameters);
  texts.set(shape, reusable ? compiled.sql : null);
  // On PostgreSQL a remembered text also runs as a named statement (src/db/prepared-pool.ts).
  if (reusable && db.getExecutor().adapter instanceof PostgresAdapter) prepareOnPostgres(compiled.sql);
  await db.executeQuery(compiled);
}

/**
 * Inserts the rows (any number) in statements of at most MAX_CHUNK rows, in order. `exact`:
 * one statement per MAX_CHUNK rows and one for the rest, whatever its size (a shape per row
 * count): for callers whose every statement is its own round trip or commit (the request
 * path's group commits, src/core/ingest/queue-writer.ts).
 */
export async function insertRows<D, T extends keyof D & string>(
  db: Kysely<D>,
  table: T,
  rows: readonly Insertable<D[T]>[],
  conflict?: ConflictClause<T, D>,
  { exact = false }: { exact?: boolean } = {},
): Promise<void> {
  let at = 0;
  for (const size of exact ? exactSizes(rows.length) : chunkSizes(rows.length)) {
    await insertChunk(db, table, rows.slice(at, at + size), conflict);
    at += size;
  }
}
