/**
 * Issue search terms that read more than one column or table (src/db/issue-search.ts uses
 * them): Sentry's `error.type:` and `error.value:` from the issue's metadata, and
 * `release:latest`.
 */
import { sql, type Expression, type ExpressionBuilder, type SqlBool } from "kysely";
import type { Dialect } from "./connect";
import type { DB } from "./schema";

type Eb = ExpressionBuilder<DB, "issues">;
type Condition = Expression<SqlBool>;

/**
 * A text field of the issue's metadata JSON (`{type, value, …}`, always written by the digest
 * step), `''` when absent so that the condition stays two-valued.
 */
export function metadataText(field: "type" | "value", dialect: Dialect): Expression<string> {
  return dialect === "postgres"
    ? sql<string>`coalesce(issues.metadata::json ->> ${field}, '')`
    : sql<string>`coalesce(json_extract(issues.metadata, ${`$.${field}`}), '')`;
}

export const isLatest = (glob: string): boolean => glob === "latest";

/**
 * `release:latest` (Sentry's): the issue's project's newest release — by creation among the
 * releases the API made for it, else the release of the project's most recently seen issue —
 * alongside `others`, the condition for the list's other values (null: any release).
 */
export function releaseTag(eb: Eb, values: readonly string[], others: Condition | null): Condition {
  const newest = eb
    .selectFrom("releases as lr")
    .innerJoin("release_projects as lrp", "lrp.release_id", "lr.id")
    .select("lr.version")
    .whereRef("lrp.project_id", "=", "issues.project_id")
    .orderBy("lr.date_created", "desc")
    .orderBy("lr.id", "desc")
    .limit(1);
  const seen = eb
    .selectFrom("issues as li")
    .select("li.last_release")
    .whereRef("li.project_id", "=", "issues.project_id")
    .where("li.last_release", "is not", null)
    .orderBy("li.last_seen", "desc")
    .limit(1);
  const latest = sql<SqlBool>`it.value = coalesce((${newest}), (${seen}))`;
  const rows = eb
    .selectFrom("issue_tags as it")
    .select(sql.lit(1).as("one"))
    .whereRef("it.issue_id", "=", "issues.id")
    .where("it.key", "=", "release");
  if (values.every(isLatest)) return eb.exists(rows.where(latest));
  // `release:[latest, *]`: any release would do.
  return eb.exists(others ? rows.where(sql<SqlBool>`(${latest} or ${others})`) : rows);
}
