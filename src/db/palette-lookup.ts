import { sql, type Kysely, type SqlBool } from "kysely";
import type { PaletteLookup } from "../core/ports/palette-lookup";
import type { Dialect } from "./connect";
import type { DB } from "./schema";

/** `%`, `_` and the escape character itself match literally in a LIKE pattern with `escape '\'`. */
const likePrefix = (text: string) => `${text.toLowerCase().replace(/[\\%_]/g, (c) => `\\${c}`)}%`;

/**
 * Every word starts a word of the title, through the title word index (migration 0035): FTS5
 * on SQLite, the GIN-indexed `simple` tsvector on PostgreSQL. "payment decl" finds
 * "auth: payment declined by gateway". The words are letters and digits only, so nothing of
 * them reaches the index's query syntax.
 */
function titleHasWords(dialect: Dialect, words: readonly string[]) {
  if (dialect === "postgres") {
    const tsquery = words.map((w) => `${w}:*`).join(" & ");
    return sql<SqlBool>`to_tsvector('simple', ${sql.ref("issues.title")}) @@ to_tsquery('simple', ${tsquery})`;
  }
  const match = words.map((w) => `"${w}"*`).join(" ");
  return sql<SqlBool>`${sql.ref("issues.id")} in (select rowid from issue_title_words where issue_title_words match ${match})`;
}

/** The command palette's reads (src/core/ports/palette-lookup.ts), each joined through `projects.organization_id`. */
export class KyselyPaletteLookup implements PaletteLookup {
  constructor(
    private readonly db: Kysely<DB>,
    private readonly dialect: Dialect,
  ) {}

  async eventsById(orgId: number, eventId: string, limit: number) {
    const rows = await this.db
      .selectFrom("events")
      .innerJoin("projects", "projects.id", "events.project_id")
      .select(["events.event_id", "events.issue_id", "events.title", "projects.slug"])
      .where("projects.organization_id", "=", orgId)
      .where("events.event_id", "=", eventId)
      .where("events.issue_id", "is not", null)
      .limit(limit)
      .execute();
    return rows.map((r) => ({ eventId: r.event_id, issueId: r.issue_id ?? 0, title: r.title, project: r.slug }));
  }

  async traceSeen(orgId: number, projectIds: ReadonlySet<number> | null, traceId: string): Promise<boolean> {
    if (projectIds !== null && projectIds.size === 0) return false;
    const inOrg = this.db
      .selectFrom("projects")
      .select("id")
      .where("organization_id", "=", orgId)
      .$if(projectIds !== null, (q) => q.where("id", "in", [...(projectIds ?? [])]));
    for (const table of ["transactions", "spans", "events"] as const) {
      const hit = await this.db
        .selectFrom(table)
        .select("trace_id")
        .where("trace_id", "=", traceId)
        .where("project_id", "in", inOrg)
        .limit(1)
        .executeTakeFirst();
      if (hit) return true;
    }
    return false;
  }

  projectsByPrefix(orgId: number, text: string, limit: number): Promise<{ slug: string; name: string }[]> {
    const pattern = likePrefix(text);
    return this.db
      .selectFrom("projects")
      .select(["slug", "name"])
      .where("organization_id", "=", orgId)
      .where((eb) =>
        eb.or([
          sql<boolean>`lower(${eb.ref("slug")}) like ${pattern} escape '\\'`,
          sql<boolean>`lower(${eb.ref("name")}) like ${pattern} escape '\\'`,
        ]),
      )
      .orderBy("slug")
      .limit(limit)
      .execute();
  }

  async issuesByTitleWords(orgId: number, words: readonly string[], limit: number) {
    if (words.length === 0) return [];
    const rows = await this.db
      .selectFrom("issues")
      .innerJoin("projects", "projects.id", "issues.project_id")
      .select(["issues.id", "issues.short_number", "issues.title", "projects.slug"])
      .where("projects.organization_id", "=", orgId)
      .where("issues.merged_into_id", "is", null)
      .where(titleHasWords(this.dialect, words))
      .orderBy("issues.last_seen", "desc")
      .limit(limit)
      .execute();
    return rows.map((r) => ({ id: r.id, shortNumber: r.short_number, title: r.title, project: r.slug }));
  }

  async projectSlug(projectId: number): Promise<string | null> {
    const row = await this.db.selectFrom("projects").select("slug").where("id", "=", projectId).executeTakeFirst();
    return row?.slug ?? null;
  }
}
