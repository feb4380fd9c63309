import { sql } from "kysely";
import type { Migration } from "./helpers";

/**
 * PostgreSQL: the ingest queue's bodies (decompressed envelopes, 17 KiB on average in the bench
 * corpus) are stored out of line, and PostgreSQL's default pglz compression of each one cost its
 * backend ~190 µs of CPU per row on this machine — most of what an accepted envelope costs the
 * database, on the two cores it shares with the request path. lz4 compresses them to the same size
 * for ~50 µs (issue 11; docs/benchmarks.md). It applies to rows written from now on.
 *
 * `SET COMPRESSION` exists from PostgreSQL 14, and lz4 only where the server was built with it:
 * elsewhere (PostgreSQL 13, or no lz4) the column keeps pglz and the migration still succeeds.
 * SQLite stores the blob as it is: nothing to do.
 */
export const m0032: Migration = {
  async up(db, dialect) {
    if (dialect !== "postgres") return;
    await sql`
      do $$
      begin
        execute 'alter table ingest_queue alter column body set compression lz4';
      exception when feature_not_supported or syntax_error then
        raise notice 'ingest_queue.body keeps the default compression: %', sqlerrm;
      end
      $$`.execute(db);
  },
};
