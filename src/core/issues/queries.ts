import type { Ctx } from "../context";
import type { EventPage, EventPosition, StoredEvent } from "../ports/telemetry-read";
import type { ActivityEntry } from "../ports/issue-reader";
import { invalidInput, notFound } from "../errors";
import { decodeKeyset, encodeKeyset, keysetPage, type KeysetPage } from "../pagination";
import { seesProject, type OrgScope } from "../orgs/access";
import type { Issue, IssueProject } from "./issue";

export type { EventPosition, StoredEvent } from "../ports/telemetry-read";
export type { ActivityEntry } from "../ports/issue-reader";

/** An issue of an organization the user can see, with its project; other orgs' issues are "not found". */
export async function issueInOrg(ctx: Ctx, scope: OrgScope, issueId: number): Promise<{ issue: Issue; project: IssueProject }> {
  const found = await ctx.issueReader.inOrganization(scope.org.id, issueId);
  if (!found || !seesProject(scope, found.issue.project_id)) throw notFound(`issue ${issueId} does not exist`);
  return found;
}

/** An issue by its short id (`WEB-1A`) in an organization. */
/** The slug of the organization an issue belongs to, for paths that name the issue alone; null when there is none. */
export function issueOrganizationSlug(ctx: Ctx, issueId: number): Promise<string | null> {
  return ctx.issueReader.organizationSlugOf(issueId);
}

export async function issueByShortId(ctx: Ctx, scope: OrgScope, shortId: string): Promise<Issue | null> {
  const m = /^(.+)-([0-9A-Z]+)$/i.exec(shortId);
  if (!m?.[1] || !m[2]) return null;
  const issue = await ctx.issueReader.byShortNumber(scope.org.id, m[1].toLowerCase(), Number.parseInt(m[2], 36));
  return issue && seesProject(scope, issue.project_id) ? issue : null;
}

export { shortId } from "./issue";

/** Events of an issue, newest first, keyset-paginated by (timestamp, id). */
export function issueEvents(ctx: Ctx, issueId: number, page: EventPage): Promise<StoredEvent[]> {
  return ctx.telemetry.issueEvents(issueId, page);
}

/** The prefix of the events cursors of an issue's and a project's lists alike (src/core/pagination.ts). */
const EVENTS_CURSOR = "e1";

/**
 * A page of an issue's events, newest first, with the cursors of the pages before and after
 * (`cursor` is one of them, or absent for the first page). A cursor it did not make is a 400.
 */
export function issueEventsPage(
  ctx: Ctx,
  issueId: number,
  page: { limit: number; cursor?: string | undefined },
): Promise<KeysetPage<StoredEvent>> {
  return eventsPage((p) => ctx.telemetry.issueEvents(issueId, p), page);
}

/** A page of a project's events, grouped or not, as an issue's are paged. */
export function projectEventsPage(
  ctx: Ctx,
  projectId: number,
  page: { limit: number; cursor?: string | undefined },
): Promise<KeysetPage<StoredEvent>> {
  return eventsPage((p) => ctx.telemetry.projectEvents(projectId, p), page);
}

async function eventsPage(
  read: (page: EventPage) => Promise<StoredEvent[]>,
  page: { limit: number; cursor?: string | undefined },
): Promise<KeysetPage<StoredEvent>> {
  const keyset = page.cursor ? decodeKeyset(EVENTS_CURSOR, page.cursor) : null;
  if (page.cursor && !keyset) throw invalidInput("Invalid cursor — drop the cursor parameter to start from the first page");
  const at = keyset ? { timestamp: keyset.value, id: keyset.id } : undefined;
  const rows = await read({ limit: page.limit + 1, ...(at ? (keyset?.back ? { after: at } : { before: at }) : {}) });
  return keysetPage(
    rows,
    page.limit,
    keyset,
    (e) => ({ value: e.timestamp, id: e.id }),
    (k) => encodeKeyset(EVENTS_CURSOR, k),
  );
}

export function issueEventAt(ctx: Ctx, issueId: number, which: EventPosition): Promise<StoredEvent | null> {
  return ctx.telemetry.issueEventAt(issueId, which);
}

/** The neighbours of an event within its issue (by time, then id). */
export function adjacentEvents(ctx: Ctx, event: StoredEvent): Promise<{ previous: StoredEvent | null; next: StoredEvent | null }> {
  return ctx.telemetry.adjacentEvents(event);
}

/**
 * What an event's detail shows beside the event: its issue's culprit (Sentry falls back to it
 * when the event has none) and the issue's older and newer events' ids.
 */
export async function eventSurroundings(
  ctx: Ctx,
  scope: OrgScope,
  event: StoredEvent,
): Promise<{ issueCulprit: string | null; previousEventID: string | null; nextEventID: string | null }> {
  if (event.issue_id === null) return { issueCulprit: null, previousEventID: null, nextEventID: null };
  const [found, { previous, next }] = await Promise.all([
    ctx.issueReader.inOrganization(scope.org.id, event.issue_id),
    ctx.telemetry.adjacentEvents(event),
  ]);
  return { issueCulprit: found?.issue.culprit ?? null, previousEventID: previous?.event_id ?? null, nextEventID: next?.event_id ?? null };
}

/** A project's event by id, with or without the dashes of a UUID, in either case. */
export async function eventInProject(ctx: Ctx, projectId: number, eventId: string): Promise<StoredEvent> {
  const event = await ctx.telemetry.eventInProject(projectId, eventId.replaceAll("-", "").toLowerCase());
  if (!event) throw notFound(`event ${eventId} does not exist`);
  return event;
}

export interface TagDistribution {
  key: string;
  total: number;
  top: { value: string; count: number }[];
}

/** The most common values of each tag of an issue, for the tag distribution panel. */
export async function tagDistribution(ctx: Ctx, issueId: number, topN = 5): Promise<TagDistribution[]> {
  const byKey = new Map<string, TagDistribution>();
  for (const r of await ctx.issueReader.tags(issueId)) {
    let d = byKey.get(r.key);
    if (!d) byKey.set(r.key, (d = { key: r.key, total: 0, top: [] }));
    d.total += r.timesSeen;
    if (d.top.length < topN) d.top.push({ value: r.value, count: r.timesSeen });
  }
  return [...byKey.values()];
}

/** Whether any event of the issue was unhandled (its `handled:no` tag), as Sentry's `isUnhandled`. */
export async function issueIsUnhandled(ctx: Ctx, issueId: number): Promise<boolean> {
  return (await ctx.issueReader.tags(issueId)).some((t) => t.key === "handled" && t.value === "no");
}

/** Hourly counts for the last `hours` hours, oldest first, zeros filled in. */
export async function hourlyCounts(ctx: Ctx, issueIds: number[], now: number, hours = 24): Promise<Map<number, number[]>> {
  const HOUR = 3_600_000;
  const end = Math.floor(now / HOUR) * HOUR;
  const start = end - (hours - 1) * HOUR;
  const out = new Map<number, number[]>(issueIds.map((id) => [id, Array.from({ length: hours }, () => 0)]));
  for (const r of await ctx.issueReader.hourly(issueIds, start, end + HOUR)) {
    const series = out.get(r.issueId);
    const i = Math.floor((r.hour - start) / HOUR);
    if (series && i >= 0 && i < hours) series[i] = (series[i] ?? 0) + r.count;
  }
  return out;
}

/** The newest 200 entries of an issue's activity log, newest first. */
export function issueActivity(ctx: Ctx, issueId: number): Promise<ActivityEntry[]> {
  return ctx.issueReader.activity(issueId, 200);
}
