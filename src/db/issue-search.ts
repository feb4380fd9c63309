/**
 * The issue search (src/core/ports/issue-search.ts) on the main database: a parsed issue query
 * as SQL conditions on `issues`, the same on SQLite and PostgreSQL, and keyset pages over them.
 *
 * - Properties of the issue (status, substatus, level, counts, dates, assignee, first
 *   release, title) are columns; tags, bookmarks and assignee emails are EXISTS subqueries,
 *   so a negated term is a plain NOT and an issue never appears twice.
 * - Every positive condition is two-valued (never NULL), so that `NOT` of it is its
 *   complement: `!assigned:me` keeps unassigned issues.
 * - Exact values compare with `=` (case-sensitive, like Sentry's tags); a value with `*` and
 *   free text match case-insensitively with `ESCAPE '\'`: LIKE on SQLite, which folds ASCII
 *   only (`É` and `é` stay different), and ILIKE on PostgreSQL, which folds by its locale.
 */
import {
  expressionBuilder,
  sql,
  type Expression,
  type ExpressionBuilder,
  type Kysely,
  type SelectQueryBuilder,
  type SqlBool,
} from "kysely";
import type { IssuePageRequest, IssueSearch } from "../core/ports/issue-search";
import type { Issue } from "../core/issues/issue";
import { RELATIVE_UNIT_MS, type Actor, type DateTerm, type IsValue, type IssueQuery, type Term } from "../core/search/ast";
import { globLiteral, globToLike, hasWildcard } from "../core/search/glob";
import { keysetPage, type KeysetPage } from "../core/pagination";
import { encodeIssueCursor, ISSUE_SORTS, type IssueCursor, type IssueSort, type IssueSortColumn } from "../core/search/sort";
import type { Dialect } from "./connect";
import { isLatest, metadataText, releaseTag } from "./issue-search-terms";
import type { DB } from "./schema";

export interface IssueQueryOptions {
  /** PostgreSQL matches case-insensitively with ILIKE; SQLite's LIKE already is (for ASCII). */
  dialect: Dialect;
  /** The user `me` means (`assigned:me`, `bookmarks:me`, `is:bookmarked`); with none, those match nothing. */
  userId: number | null;
  /** Milliseconds since the epoch, for relative dates (`firstSeen:-24h`). */
  now: number;
}

type Eb = ExpressionBuilder<DB, "issues">;
type Condition = Expression<SqlBool>;

const TRUE: Condition = sql<SqlBool>`1 = 1`;
const FALSE: Condition = sql<SqlBool>`1 = 0`;

/** Sentry's window for an exact date-time (`src/sentry/search/utils.py`, `parse_datetime_value`): from 5 minutes before to 6 after. */
const EXACT_TIME_BEFORE_MS = 5 * 60_000;
const EXACT_TIME_AFTER_MS = 6 * 60_000;
const DAY_MS = 86_400_000;

/**
 * The query as one condition on `issues` (unaliased), for any select that has that table:
 * `qb.where(issueQueryCondition(q, opts))`. An empty query is `1 = 1`.
 */
export function issueQueryCondition(query: IssueQuery, options: IssueQueryOptions): Condition {
  const eb = expressionBuilder<DB, "issues">();
  const parts = query.terms.map((t) => {
    const positive = termCondition(eb, t, options);
    return t.negated ? eb.not(positive) : positive;
  });
  return parts.length === 0 ? TRUE : eb.and(parts);
}

/** Adds the query's WHERE clauses; no default status (the caller decides, e.g. `is:unresolved`). */
export function applyIssueQuery<TB extends keyof DB, O>(
  qb: SelectQueryBuilder<DB, TB, O>,
  query: IssueQuery,
  options: IssueQueryOptions,
): SelectQueryBuilder<DB, TB, O> {
  return query.terms.length === 0 ? qb : qb.where(issueQueryCondition(query, options));
}

function termCondition(eb: Eb, term: Term, o: IssueQueryOptions): Condition {
  switch (term.type) {
    case "is":
      return isCondition(eb, term.value, o);
    case "has":
      return term.key === "trace" ? traceIn(eb, null, o.dialect) : tagExists(eb, term.key, null, o.dialect);
    case "text":
      return eb.or([
        like(sql.ref<string>("issues.title"), term.value, o.dialect, true),
        like(sql.ref<string>("issues.culprit"), term.value, o.dialect, true),
      ]);
    case "level":
      return eb("issues.level", "in", term.values);
    case "number":
      return eb(term.field === "times_seen" ? "issues.times_seen" : "issues.user_count", term.op, term.value);
    case "date":
      return dateCondition(eb, term, o.now);
    case "assigned":
      return eb.or(term.values.map((a) => assignedTo(eb, a, o.userId)));
    case "bookmarks":
      return eb.or(term.values.map((a) => bookmarkedBy(eb, a, o.userId)));
    case "field": {
      if (term.field === "error.type" || term.field === "error.value") {
        const value = metadataText(term.field === "error.type" ? "type" : "value", o.dialect);
        return eb.or(term.values.map((g) => globMatch(value, g, o.dialect)));
      }
      const column = term.field === "title" ? "issues.title" : "issues.first_release";
      const match = eb.or(term.values.map((g) => globMatch(sql.ref<string>(column), g, o.dialect)));
      return column === "issues.first_release" ? eb.and([eb("issues.first_release", "is not", null), match]) : match;
    }
    case "tag":
      if (term.key === "trace") return traceIn(eb, term.values, o.dialect);
      if (term.key === "release" && term.values.some(isLatest))
        return releaseTag(
          eb,
          term.values,
          oneOf(
            "it.value",
            term.values.filter((v) => !isLatest(v)),
            o.dialect,
          ),
        );
      return tagExists(eb, term.key, term.values, o.dialect);
  }
}

function isCondition(eb: Eb, value: IsValue, o: IssueQueryOptions): Condition {
  switch (value) {
    case "unresolved":
    case "resolved":
    case "ignored":
      return eb("issues.status", "=", value);
    case "archived":
      // Sentry renamed "ignored" to "archived"; both are the same status.
      return eb("issues.status", "=", "ignored");
    case "assigned":
      return eb.or([eb("issues.assignee_id", "is not", null), eb("issues.assignee_team_id", "is not", null)]);
    case "unassigned":
      return eb.and([eb("issues.assignee_id", "is", null), eb("issues.assignee_team_id", "is", null)]);
    case "bookmarked":
      return bookmarkedBy(eb, { kind: "me" }, o.userId);
    case "regressed":
    case "new":
    case "ongoing":
    case "escalating":
      return eb("issues.substatus", "=", value);
  }
}

/**
 * Relative: `-24h` is "within the last 24 hours" (column >= now - 24h), `+24h` "longer ago"
 * (column <= now - 24h). Absolute with `=`: the whole UTC day, or a few minutes around a time.
 */
function dateCondition(eb: Eb, term: DateTerm, now: number): Condition {
  const column = term.field === "firstSeen" ? "issues.first_seen" : "issues.last_seen";
  const v = term.value;
  if (v.kind === "relative") {
    const edge = now - v.amount * RELATIVE_UNIT_MS[v.unit];
    return eb(column, v.sign === "-" ? ">=" : "<=", edge);
  }
  if (v.op !== "=") return eb(column, v.op, v.ms);
  const [from, to] = v.precision === "day" ? [v.ms, v.ms + DAY_MS] : [v.ms - EXACT_TIME_BEFORE_MS, v.ms + EXACT_TIME_AFTER_MS];
  return eb.and([eb(column, ">=", from), eb(column, "<", to)]);
}

function assignedTo(eb: Eb, a: Actor, userId: number | null): Condition {
  switch (a.kind) {
    case "none":
      return eb.and([eb("issues.assignee_id", "is", null), eb("issues.assignee_team_id", "is", null)]);
    case "team":
      // A team of the issue's organization: slugs are unique there.
      return eb.exists(
        eb
          .selectFrom("teams as at")
          .innerJoin("projects as ap", "ap.organization_id", "at.organization_id")
          .select(sql.lit(1).as("one"))
          .whereRef("at.id", "=", "issues.assignee_team_id")
          .whereRef("ap.id", "=", "issues.project_id")
          .where("at.slug", "=", a.slug),
      );
    case "me":
      return userId === null ? FALSE : eb.and([eb("issues.assignee_id", "is not", null), eb("issues.assignee_id", "=", userId)]);
    case "email":
      return eb.exists(
        eb
          .selectFrom("users as au")
          .select(sql.lit(1).as("one"))
          .whereRef("au.id", "=", "issues.assignee_id")
          .where("au.email", "=", a.email),
      );
  }
}

function bookmarkedBy(eb: Eb, a: Actor, userId: number | null): Condition {
  const bookmarks = eb.selectFrom("issue_bookmarks as ib").select(sql.lit(1).as("one")).whereRef("ib.issue_id", "=", "issues.id");
  switch (a.kind) {
    case "me":
      return userId === null ? FALSE : eb.exists(bookmarks.where("ib.user_id", "=", userId));
    case "email":
      return eb.exists(bookmarks.innerJoin("users as bu", "bu.id", "ib.user_id").where("bu.email", "=", a.email));
    case "none":
    case "team":
      // The parser only allows `none` and teams for assignees.
      return FALSE;
  }
}

/** EXISTS a tag row with this key (and, when given, one of these values). */
function tagExists(eb: Eb, key: string, values: readonly string[] | null, dialect: Dialect): Condition {
  const rows = eb
    .selectFrom("issue_tags as it")
    .select(sql.lit(1).as("one"))
    .whereRef("it.issue_id", "=", "issues.id")
    .where("it.key", "=", key);
  const match = oneOf("it.value", values, dialect);
  return eb.exists(match ? rows.where(match) : rows);
}

/**
 * `trace:` and `has:trace`: EXISTS one of the issue's events in that trace. The trace is a
 * per-event tag, kept on the event (indexed) rather than in the issue's tag index
 * (PER_EVENT_TAGS, src/core/issues/event-tags.ts). Trace ids are stored in lower case.
 */
function traceIn(eb: Eb, values: readonly string[] | null, dialect: Dialect): Condition {
  const rows = eb
    .selectFrom("events as te")
    .select(sql.lit(1).as("one"))
    .whereRef("te.issue_id", "=", "issues.id")
    .where("te.trace_id", "is not", null);
  const match = oneOf("te.trace_id", values, dialect, (v) => v.toLowerCase());
  return eb.exists(match ? rows.where(match) : rows);
}

/** `column` holds one of these values (globs match as LIKE); null when every value would do. */
export function oneOf(column: string, values: readonly string[] | null, dialect: Dialect, fold = (v: string) => v): Condition | null {
  if (!values || values.some(matchesEverything)) return null;
  const ref = sql.ref<string>(column);
  const exact = values.filter((g) => !hasWildcard(g)).map((g) => fold(globLiteral(g)));
  const parts: Condition[] = [
    ...(exact.length > 0 ? [sql<SqlBool>`${ref} in (${sql.join(exact)})`] : []),
    ...values.filter(hasWildcard).map((g) => like(ref, g, dialect, false)),
  ];
  return sql<SqlBool>`(${sql.join(parts, sql` or `)})`;
}

/** `*` alone: any value, which is the same as "has the tag". */
function matchesEverything(glob: string): boolean {
  return /^\*+$/.test(glob);
}

export function globMatch(column: Expression<string>, glob: string, dialect: Dialect): Condition {
  return hasWildcard(glob) ? like(column, glob, dialect, false) : sql<SqlBool>`${column} = ${globLiteral(glob)}`;
}

/** Case-insensitive `column LIKE pattern ESCAPE '\'`; `contains` wraps the glob in `*…*`. */
export function like(column: Expression<string>, glob: string, dialect: Dialect, contains: boolean): Condition {
  const pattern = contains ? `%${globToLike(glob)}%` : globToLike(glob);
  return dialect === "postgres"
    ? sql<SqlBool>`${column} ILIKE ${pattern} ESCAPE '\\'`
    : sql<SqlBool>`${column} LIKE ${pattern} ESCAPE '\\'`;
}

/**
 * ORDER BY the sort column and id, descending, starting after `cursor` when given; a backward
 * cursor reads the rows before it, nearest first (ascending), for keysetPage to turn round.
 */
export function applyIssueSort<TB extends keyof DB, O>(
  qb: SelectQueryBuilder<DB, TB, O>,
  sort: IssueSort,
  cursor: IssueCursor | null,
): SelectQueryBuilder<DB, TB, O> {
  const column = `issues.${ISSUE_SORTS[sort]}` as const;
  const back = cursor?.back === true;
  let q = qb;
  if (cursor) {
    const eb = expressionBuilder<DB, "issues">();
    const op = back ? ">" : "<";
    q = q.where(eb.or([eb(column, op, cursor.value), eb.and([eb(column, "=", cursor.value), eb("issues.id", op, cursor.id)])]));
  }
  const dir = back ? "asc" : "desc";
  return q.orderBy(sql.ref(column), dir).orderBy(sql.ref("issues.id"), dir);
}

type IssueSortRow = { id: number } & Record<IssueSortColumn, number>;

/**
 * One page of `qb` in `sort` order on `cursor`'s side of it, with the cursors of the pages
 * before and after (null at either end): reads one row more than `limit` to know.
 */
export async function fetchIssuePage<TB extends keyof DB, O extends IssueSortRow>(
  qb: SelectQueryBuilder<DB, TB, O>,
  page: { sort: IssueSort; cursor: IssueCursor | null; limit: number },
): Promise<KeysetPage<O>> {
  const rows: O[] = await applyIssueSort(qb, page.sort, page.cursor)
    .limit(page.limit + 1)
    .execute();
  const column = ISSUE_SORTS[page.sort];
  return keysetPage(
    rows,
    page.limit,
    page.cursor,
    (row) => ({ value: row[column], id: row.id }),
    (keyset) => encodeIssueCursor({ sort: page.sort, ...keyset }),
  );
}

/**
 * The environments these projects' issues were seen in (src/core/ports/issue-search.ts), by a
 * loose index scan: the recursive query steps from one environment name to the next through
 * the index on (key, value), one seek each, and keeps a name when an issue of these projects
 * carries it (the first such row ends that search). `select distinct` over the join read every
 * issue's environment rows instead: 48,386 rows and 63–133 ms per stream view at 1 M events
 * (docs/benchmarks.md). At most MAX_ENVIRONMENT_NAMES names are
 * stepped through, so a flood of made-up names costs a bounded number of seeks.
 */
export async function environmentsSeen(db: Kysely<DB>, projectIds: readonly number[], limit: number): Promise<string[]> {
  if (projectIds.length === 0 || limit <= 0) return [];
  const ids = sql.join(projectIds.map((id) => sql`${id}`));
  const rows = await sql<{ value: string }>`
    with recursive names(value, n) as (
      select (select min(value) from issue_tags where key = 'environment'), 0
      union all
      select (select min(t.value) from issue_tags t where t.key = 'environment' and t.value > names.value), names.n + 1
      from names
      where names.value is not null and names.n < ${MAX_ENVIRONMENT_NAMES}
    )
    select names.value from names
    where names.value is not null and exists (
      select 1 from issue_tags t inner join issues i on i.id = t.issue_id
      where t.key = 'environment' and t.value = names.value and i.project_id in (${ids})
    )
    order by names.value
    limit ${limit}`.execute(db);
  return rows.rows.map((r) => r.value);
}

/** Environment names stepped through at most per `environmentsSeen` call (see there). */
const MAX_ENVIRONMENT_NAMES = 1000;

/** The IssueSearch over the main database, SQLite or PostgreSQL. Merged issues are never listed. */
export class KyselyIssueSearch implements IssueSearch {
  constructor(
    private readonly db: Kysely<DB>,
    private readonly dialect: Dialect,
  ) {}

  environments(projectIds: readonly number[], limit: number): Promise<string[]> {
    return environmentsSeen(this.db, projectIds, limit);
  }

  async tagKeysSeen(projectIds: readonly number[], keys: readonly string[]): Promise<string[]> {
    if (projectIds.length === 0 || keys.length === 0) return [];
    const seen = await Promise.all(
      keys.map(async (key) => {
        const row = await this.db
          .selectFrom("issue_tags as t")
          .innerJoin("issues as i", "i.id", "t.issue_id")
          .select("t.key")
          .where("t.key", "=", key)
          .where("i.project_id", "in", [...projectIds])
          .limit(1)
          .executeTakeFirst();
        return row ? key : null;
      }),
    );
    return seen.filter((k): k is string => k !== null);
  }

  page(request: IssuePageRequest): Promise<KeysetPage<Issue>> {
    let q = this.db
      .selectFrom("issues")
      .selectAll("issues")
      .where("issues.project_id", "in", request.projectIds.length ? [...request.projectIds] : [-1])
      .where("issues.merged_into_id", "is", null);
    if (request.since !== undefined) q = q.where("issues.last_seen", ">=", request.since);
    q = applyIssueQuery(q, request.query, { dialect: this.dialect, userId: request.userId, now: request.now });
    return fetchIssuePage(q, { sort: request.sort, cursor: request.cursor, limit: request.limit });
  }
}
