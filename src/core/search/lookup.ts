import { sql, type SqlBool } from "kysely";
import type { Dialect } from "../../db/connect";
import type { Organization, Project } from "../../db/schema";
import type { Ctx } from "../context";
import { issueByShortId, shortId } from "../issues/queries";
import type { OrgScope } from "../orgs/access";
import { listProjects } from "../projects/queries";

/** How many results the command palette shows; more would not fit a phone's screen. */
export const LOOKUP_LIMIT = 8;
/** Event and trace ids are 32 hex digits (dashes allowed, as a UUID): https://develop.sentry.dev/sdk/data-model/event-payloads/#required-attributes */
const HEX_ID = /^[0-9a-f]{32}$/;

export type LookupResult =
  | { kind: "issue"; id: number; shortId: string; title: string; project: string }
  | { kind: "event"; eventId: string; issueId: number; title: string; project: string }
  | { kind: "trace"; traceId: string }
  | { kind: "project"; slug: string; name: string };

/** `%`, `_` and the escape character itself match literally in a LIKE pattern with `escape '\'`. */
const likePrefix = (text: string) => `${text.toLowerCase().replace(/[\\%_]/g, (c) => `\\${c}`)}%`;

/**
 * The command palette's lookup: what a typed query names among the organization's data.
 * Every query joins through `projects.organization_id`, so another organization's issue,
 * event or trace is never found (the caller has already checked the user may read this one).
 * A 32-hex id is tried as an event id and as a trace id; a short id (`WEB-1A`) as an issue;
 * other text as a project slug or name prefix and as words anywhere in an issue's title.
 */
export async function lookup({ ctx, input }: { ctx: Ctx; input: OrgScope & { query: string } }): Promise<LookupResult[]> {
  const results = await lookupInOrg(ctx, input, input.query);
  if (input.projectIds === null) return results;
  // With open membership off: only what the user's teams' projects hold (a trace is looked up
  // in those alone).
  const slugs = new Set((await listProjects(ctx, input)).map((p) => p.slug));
  return results.filter((r) => (r.kind === "project" ? slugs.has(r.slug) : r.kind === "trace" || slugs.has(r.project)));
}

async function lookupInOrg(ctx: Ctx, scope: OrgScope, text: string): Promise<LookupResult[]> {
  const { org } = scope;
  const query = text.trim();
  if (query === "") return [];
  const results: LookupResult[] = [];
  const hex = query.toLowerCase().replaceAll("-", "");
  if (HEX_ID.test(hex)) {
    results.push(...(await eventsById(ctx, org, hex)));
    if (await traceExists(ctx, scope, hex)) results.push({ kind: "trace", traceId: hex });
    return results;
  }
  const byShortId = await issueByShortId(ctx, { org, projectIds: null }, query);
  if (byShortId) {
    const project = await ctx.db.selectFrom("projects").selectAll().where("id", "=", byShortId.project_id).executeTakeFirstOrThrow();
    results.push(issueResult(byShortId, project));
  }
  const pattern = likePrefix(query);
  const projects = await ctx.db
    .selectFrom("projects")
    .select(["slug", "name"])
    .where("organization_id", "=", org.id)
    .where((eb) =>
      eb.or([
        sql<boolean>`lower(${eb.ref("slug")}) like ${pattern} escape '\\'`,
        sql<boolean>`lower(${eb.ref("name")}) like ${pattern} escape '\\'`,
      ]),
    )
    .orderBy("slug")
    .limit(LOOKUP_LIMIT)
    .execute();
  results.push(...projects.map((p) => ({ kind: "project" as const, slug: p.slug, name: p.name })));
  const words = titleWords(query);
  const issues =
    words.length === 0
      ? []
      : await ctx.db
          .selectFrom("issues")
          .innerJoin("projects", "projects.id", "issues.project_id")
          .select(["issues.id", "issues.short_number", "issues.title", "issues.project_id", "projects.slug"])
          .where("projects.organization_id", "=", org.id)
          .where("issues.merged_into_id", "is", null)
          .where(titleHasWords(ctx.dialect, words))
          .orderBy("issues.last_seen", "desc")
          .limit(LOOKUP_LIMIT)
          .execute();
  for (const i of issues) if (i.id !== byShortId?.id) results.push(issueResult(i, i));
  return results.slice(0, LOOKUP_LIMIT);
}

/** At most this many words of the typed text are looked up: a few already narrow it down. */
const MAX_WORDS = 8;

/** The words of the typed text, letters and digits only: nothing of it reaches the index's query syntax. */
export function titleWords(text: string): string[] {
  return (text.toLowerCase().match(/[\p{L}\p{N}]+/gu) ?? []).slice(0, MAX_WORDS);
}

/**
 * Every word starts a word of the title, through the title word index (migration 0035): FTS5
 * on SQLite, the GIN-indexed `simple` tsvector on PostgreSQL. "payment decl" finds
 * "auth: payment declined by gateway".
 */
function titleHasWords(dialect: Dialect, words: readonly string[]) {
  if (dialect === "postgres") {
    const tsquery = words.map((w) => `${w}:*`).join(" & ");
    return sql<SqlBool>`to_tsvector('simple', ${sql.ref("issues.title")}) @@ to_tsquery('simple', ${tsquery})`;
  }
  const match = words.map((w) => `"${w}"*`).join(" ");
  return sql<SqlBool>`${sql.ref("issues.id")} in (select rowid from issue_title_words where issue_title_words match ${match})`;
}

function issueResult(issue: { id: number; short_number: number; title: string }, project: Pick<Project, "slug">): LookupResult {
  return { kind: "issue", id: issue.id, shortId: shortId(project, issue), title: issue.title, project: project.slug };
}

async function eventsById(ctx: Ctx, org: Organization, eventId: string): Promise<LookupResult[]> {
  const rows = await ctx.db
    .selectFrom("events")
    .innerJoin("projects", "projects.id", "events.project_id")
    .select(["events.event_id", "events.issue_id", "events.title", "projects.slug"])
    .where("projects.organization_id", "=", org.id)
    .where("events.event_id", "=", eventId)
    .where("events.issue_id", "is not", null)
    .limit(LOOKUP_LIMIT)
    .execute();
  return rows.map((r) => ({ kind: "event", eventId: r.event_id, issueId: r.issue_id ?? 0, title: r.title, project: r.slug }));
}

/**
 * A trace is known when a transaction, a span or an error event of a project the user sees
 * carries its id: one seen only in other teams' projects is not offered (decision 0014).
 */
async function traceExists(ctx: Ctx, { org, projectIds }: OrgScope, traceId: string): Promise<boolean> {
  if (projectIds !== null && projectIds.size === 0) return false;
  const inOrg = ctx.db
    .selectFrom("projects")
    .select("id")
    .where("organization_id", "=", org.id)
    .$if(projectIds !== null, (q) => q.where("id", "in", [...(projectIds ?? [])]));
  for (const table of ["transactions", "spans", "events"] as const) {
    const hit = await ctx.db
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
