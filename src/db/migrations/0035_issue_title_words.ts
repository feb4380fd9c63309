import { sql } from "kysely";
import type { Migration } from "./helpers";

/**
 * A word index on issue titles, for the command palette, which finds an issue by any word of
 * its title (src/core/search/lookup.ts) — a `LIKE '%word%'` would read every issue each time.
 * SQLite: an FTS5 table over `issues.title` (external content: it holds only the index), kept
 * by triggers. PostgreSQL: a GIN index on the title's `simple` tsvector (no stemming, no stop
 * words: error titles are not prose), which `@@ to_tsquery('simple', 'word:*')` uses.
 */
export const m0035: Migration = {
  async up(db, dialect) {
    if (dialect === "postgres") {
      await sql`create index if not exists issues_title_words on issues using gin (to_tsvector('simple', title))`.execute(db);
      return;
    }
    await sql`create virtual table if not exists issue_title_words using fts5(title, content='issues', content_rowid='id', tokenize='unicode61 remove_diacritics 2')`.execute(
      db,
    );
    await sql`create trigger if not exists issue_title_words_insert after insert on issues begin
      insert into issue_title_words(rowid, title) values (new.id, new.title); end`.execute(db);
    await sql`create trigger if not exists issue_title_words_delete after delete on issues begin
      insert into issue_title_words(issue_title_words, rowid, title) values ('delete', old.id, old.title); end`.execute(db);
    await sql`create trigger if not exists issue_title_words_update after update of title on issues begin
      insert into issue_title_words(issue_title_words, rowid, title) values ('delete', old.id, old.title);
      insert into issue_title_words(rowid, title) values (new.id, new.title); end`.execute(db);
    await sql`insert into issue_title_words(issue_title_words) values ('rebuild')`.execute(db);
  },
};
