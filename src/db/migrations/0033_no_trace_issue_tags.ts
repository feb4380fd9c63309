import { sql } from "kysely";
import type { Migration } from "./helpers";

/**
 * The issue tag index no longer holds `trace`: its value is new with almost every event, so it
 * added one row per event (39,228 of the loudest bench issue's 39,300 rows) and a distribution
 * that says nothing. `trace:` searches read `events.trace_id` (src/db/issue-search.ts). The rows
 * written before are removed here, through the `(key, value)` index.
 */
export const m0033: Migration = {
  async up(db) {
    await sql`delete from issue_tags where key = 'trace'`.execute(db);
  },
};
