/**
 * Discover over the main database: the errors dataset is the `events` table (with its
 * project's slug). Aliases are positional (`c0`, `a0`), since field strings such as `count()`
 * are not identifiers; the rows are keyed back by the field strings.
 */
import { sql, type Expression, type Kysely, type RawBuilder, type SqlBool } from "kysely";
import type {
  DiscoverAggregate,
  DiscoverBucket,
  DiscoverColumnName,
  DiscoverPlan,
  DiscoverReader,
  DiscoverRow,
  DiscoverValue,
} from "../core/ports/discover";
import type { Term } from "../core/search/ast";
import type { Dialect } from "./connect";
import { globMatch, like, oneOf } from "./issue-search";
import type { DB } from "./schema";

const COLUMNS: Record<DiscoverColumnName, string> = {
  title: "events.title",
  project: "projects.slug",
  release: "events.release",
  environment: "events.environment",
  level: "events.level",
  timestamp: "events.timestamp",
  id: "events.event_id",
  "issue.id": "events.issue_id",
};

function aggregateSql(a: DiscoverAggregate): RawBuilder<unknown> {
  switch (a.fn) {
    case "count":
      return sql`count(*)`;
    case "count_unique":
      return sql`count(distinct ${sql.ref(COLUMNS[a.column])})`;
    case "last_seen":
      return sql`max(events.timestamp)`;
    case "first_seen":
      return sql`min(events.timestamp)`;
  }
}

/** PostgreSQL answers counts as text (bigint); every aggregate here is a number. */
const numeric = (v: unknown): DiscoverValue => (v === null || v === undefined ? null : Number(v));
const plain = (v: unknown): DiscoverValue => (v === null || v === undefined ? null : typeof v === "number" ? v : String(v));

export class KyselyDiscoverReader implements DiscoverReader {
  constructor(
    private readonly db: Kysely<DB>,
    private readonly dialect: Dialect,
  ) {}

  async table(plan: DiscoverPlan): Promise<DiscoverRow[]> {
    const rows = await this.query(plan, null).limit(plan.limit).offset(plan.offset).execute();
    return rows.map((r) => this.rowOf(plan, r));
  }

  async series(plan: DiscoverPlan, intervalSeconds: number): Promise<DiscoverBucket[]> {
    const rows = await this.query(plan, intervalSeconds).execute();
    return rows.map((r) => ({ bucket: Number(r["bucket"]), row: this.rowOf(plan, r) }));
  }

  private rowOf(plan: DiscoverPlan, r: Record<string, unknown>): DiscoverRow {
    const row: DiscoverRow = {};
    plan.columns.forEach((c, i) => (row[c.key] = plain(r[`c${i}`])));
    plan.aggregates.forEach((a, i) => (row[a.key] = numeric(r[`a${i}`])));
    return row;
  }

  private query(plan: DiscoverPlan, interval: number | null) {
    const grouped = plan.aggregates.length > 0 || interval !== null;
    const alias = new Map<string, string>();
    const selections: RawBuilder<unknown>[] = [];
    plan.columns.forEach((c, i) => {
      alias.set(c.key, `c${i}`);
      selections.push(sql`${sql.ref(COLUMNS[c.column])} as ${sql.ref(`c${i}`)}`);
    });
    plan.aggregates.forEach((a, i) => {
      alias.set(a.key, `a${i}`);
      selections.push(sql`${aggregateSql(a)} as ${sql.ref(`a${i}`)}`);
    });
    const bucket = interval === null ? null : this.bucketSql(interval);
    if (bucket) selections.push(sql`${bucket} as bucket`);
    let q = this.db
      .selectFrom("events")
      .innerJoin("projects", "projects.id", "events.project_id")
      .select(selections as never)
      .where("events.project_id", "in", plan.projectIds.length ? [...plan.projectIds] : [-1])
      .where("events.timestamp", ">=", plan.start)
      .where("events.timestamp", "<", plan.end);
    for (const term of plan.terms) q = q.where(this.condition(term));
    if (grouped) {
      const groups: RawBuilder<unknown>[] = plan.columns.map((c) => sql.ref(COLUMNS[c.column]) as unknown as RawBuilder<unknown>);
      if (bucket) groups.push(bucket);
      if (groups.length) q = q.groupBy(groups as never);
    }
    for (const o of plan.orderBy) q = q.orderBy(sql.ref(alias.get(o.key) ?? "c0"), o.descending ? "desc" : "asc");
    if (bucket) q = q.orderBy(sql.ref("bucket"), "asc");
    return q;
  }

  /** The width is inlined (a whole number of seconds), so the GROUP BY repeats the SELECT's expression exactly. */
  private bucketSql(interval: number): RawBuilder<number> {
    const width = sql.lit(Math.max(1, Math.floor(interval)));
    return this.dialect === "postgres"
      ? sql<number>`(floor(events.timestamp / ${width}) * ${width})::bigint`
      : sql<number>`cast(events.timestamp / ${width} as integer) * ${width}`;
  }

  private condition(term: Term): Expression<SqlBool> {
    const c = this.positive(term);
    return term.negated ? sql<SqlBool>`not (${c})` : c;
  }

  private positive(term: Term): Expression<SqlBool> {
    const title = sql.ref<string>("events.title");
    const always = sql<SqlBool>`1 = 1`;
    switch (term.type) {
      case "text":
        return like(title, term.value, this.dialect, true);
      case "level":
        return sql<SqlBool>`events.level in (${sql.join(term.values)})`;
      case "field":
        return sql<SqlBool>`(${sql.join(
          term.values.map((v) => globMatch(title, v, this.dialect)),
          sql` or `,
        )})`;
      case "tag": {
        const column = term.key === "release" ? "events.release" : "events.environment";
        return oneOf(column, term.values, this.dialect) ?? sql<SqlBool>`${sql.ref(column)} is not null`;
      }
      default:
        // planOf refuses every other term for this dataset.
        return always;
    }
  }
}
