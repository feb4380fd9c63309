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
    results.push(...(await ctx.paletteLookup.eventsById(org.id, hex, LOOKUP_LIMIT)).map((e) => ({ kind: "event" as const, ...e })));
    // A trace seen only in other teams' projects is not offered (decision 0014).
    if (await ctx.paletteLookup.traceSeen(org.id, scope.projectIds, hex)) results.push({ kind: "trace", traceId: hex });
    return results;
  }
  const byShortId = await issueByShortId(ctx, { org, projectIds: null }, query);
  if (byShortId) {
    const project = await ctx.paletteLookup.projectSlug(byShortId.project_id);
    if (project !== null)
      results.push(issueResult({ id: byShortId.id, shortNumber: byShortId.short_number, title: byShortId.title, project }));
  }
  const projects = await ctx.paletteLookup.projectsByPrefix(org.id, query, LOOKUP_LIMIT);
  results.push(...projects.map((p) => ({ kind: "project" as const, slug: p.slug, name: p.name })));
  const issues = await ctx.paletteLookup.issuesByTitleWords(org.id, titleWords(query), LOOKUP_LIMIT);
  for (const i of issues) if (i.id !== byShortId?.id) results.push(issueResult(i));
  return results.slice(0, LOOKUP_LIMIT);
}

/** At most this many words of the typed text are looked up: a few already narrow it down. */
const MAX_WORDS = 8;

/** The words of the typed text, letters and digits only: nothing of it reaches the index's query syntax. */
export function titleWords(text: string): string[] {
  return (text.toLowerCase().match(/[\p{L}\p{N}]+/gu) ?? []).slice(0, MAX_WORDS);
}

function issueResult(issue: { id: number; shortNumber: number; title: string; project: string }): LookupResult {
  const id = shortId({ slug: issue.project }, { short_number: issue.shortNumber });
  return { kind: "issue", id: issue.id, shortId: id, title: issue.title, project: issue.project };
}
