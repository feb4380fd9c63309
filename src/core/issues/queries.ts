import type { Project, User } from "../../db/schema";
import type { Ctx } from "../context";
import type { EventPage, EventPosition, StoredEvent } from "../ports/telemetry-read";
import { invalidInput, notFound } from "../errors";
import { decodeKeyset, encodeKeyset, keysetPage, type KeysetPage } from "../pagination";
import { seesProject, type OrgScope } from "../orgs/access";
import type { Issue } from "./triage";

export type { EventPosition, StoredEvent } from "../ports/telemetry-read";

/** An issue of an organization the user can see, with its project; other orgs' issues are "not found". */
export async function issueInOrg(ctx: Ctx, scope: OrgScope, issueId: number): Promise<{ issue: Issue; project: Project }> {
  const { org } = scope;
  const row = await ctx.db
    .selectFrom("issues")
    .innerJoin("projects", "projects.id", "issues.project_id")
    .selectAll("issues")
    .select([
      "projects.slug as p_slug",
      "projects.name as p_name",
      "projects.platform as p_platform",
      "projects.organization_id as p_org",
      "projects.created_at as p_created",
      "projects.grouping_config as p_grouping",
      "projects.grouping_previous_config as p_grouping_previous",
      "projects.grouping_transition_until as p_grouping_until",
    ])
    .where("issues.id", "=", issueId)
    .where("projects.organization_id", "=", org.id)
    .executeTakeFirst();
  if (!row || !seesProject(scope, row.project_id)) throw notFound(`issue ${issueId} does not exist`);
  const { p_slug, p_name, p_platform, p_org, p_created, p_grouping, p_grouping_previous, p_grouping_until, ...issue } = row;
  return {
    issue,
    project: {
      id: issue.project_id,
      slug: p_slug,
      name: p_name,
      platform: p_platform,
      organization_id: p_org,
      created_at: p_created,
      grouping_config: p_grouping,
      grouping_previous_config: p_grouping_previous,
      grouping_transition_until: p_grouping_until,
    },
  };
}

/** An issue by its short id (`WEB-1A`) in an organization. */
export async function issueByShortId(ctx: Ctx, scope: OrgScope, shortId: string): Promise<Issue | null> {
  const { org } = scope;
  const m = /^(.+)-([0-9A-Z]+)$/i.exec(shortId);
  if (!m) return null;
  const number = Number.parseInt(m[2]!, 36);
  const issue =
    (await ctx.db
      .selectFrom("issues")
      .innerJoin("projects", "projects.id", "issues.project_id")
      .selectAll("issues")
      .where("projects.organization_id", "=", org.id)
      .where("projects.slug", "=", m[1]!.toLowerCase())
      .where("issues.short_number", "=", number)
      .executeTakeFirst()) ?? null;
  return issue && seesProject(scope, issue.project_id) ? issue : null;
}

export const shortId = (project: Pick<Project, "slug">, issue: Pick<Issue, "short_number">) =>
  `${project.slug.toUpperCase()}-${issue.short_number.toString(36).toUpperCase()}`;

/** Events of an issue, newest first, keyset-paginated by (timestamp, id). */
export function issueEvents(ctx: Ctx, issueId: number, page: EventPage): Promise<StoredEvent[]> {
  return ctx.telemetry.issueEvents(issueId, page);
}

/** The prefix of an issue's events cursors (src/core/pagination.ts). */
const EVENTS_CURSOR = "e1";

/**
 * A page of an issue's events, newest first, with the cursors of the pages before and after
 * (`cursor` is one of them, or absent for the first page). A cursor it did not make is a 400.
 */
export async function issueEventsPage(
  ctx: Ctx,
  issueId: number,
  page: { limit: number; cursor?: string | undefined },
): Promise<KeysetPage<StoredEvent>> {
  const keyset = page.cursor ? decodeKeyset(EVENTS_CURSOR, page.cursor) : null;
  if (page.cursor && !keyset) throw invalidInput("Invalid cursor — drop the cursor parameter to start from the first page");
  const at = keyset ? { timestamp: keyset.value, id: keyset.id } : undefined;
  const rows = await ctx.telemetry.issueEvents(issueId, {
    limit: page.limit + 1,
    ...(at ? (keyset?.back ? { after: at } : { before: at }) : {}),
  });
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
  const rows = await ctx.db
    .selectFrom("issue_tags")
    .select(["key", "value", "times_seen"])
    .where("issue_id", "=", issueId)
    .orderBy("key")
    .orderBy("times_seen", "desc")
    .execute();
  const byKey = new Map<string, TagDistribution>();
  for (const r of rows) {
    let d = byKey.get(r.key);
    if (!d) byKey.set(r.key, (d = { key: r.key, total: 0, top: [] }));
    d.total += r.times_seen;
    if (d.top.length < topN) d.top.push({ value: r.value, count: r.times_seen });
  }
  return [...byKey.values()];
}

/** Hourly counts for the last `hours` hours, oldest first, zeros filled in. */
export async function hourlyCounts(ctx: Ctx, issueIds: number[], now: number, hours = 24): Promise<Map<number, number[]>> {
  const HOUR = 3_600_000;
  const end = Math.floor(now / HOUR) * HOUR;
  const start = end - (hours - 1) * HOUR;
  const out = new Map<number, number[]>(issueIds.map((id) => [id, Array.from({ length: hours }, () => 0)]));
  if (issueIds.length === 0) return out;
  const rows = await ctx.db.selectFrom("issue_hourly").selectAll().where("issue_id", "in", issueIds).where("hour", ">=", start).execute();
  for (const r of rows) {
    const series = out.get(r.issue_id);
    const i = Math.floor((r.hour - start) / HOUR);
    if (series && i >= 0 && i < hours) series[i] = (series[i] ?? 0) + r.count;
  }
  return out;
}

export interface ActivityEntry {
  id: number;
  type: string;
  data: Record<string, unknown>;
  createdAt: number;
  user: Pick<User, "id" | "email" | "name"> | null;
}

export async function issueActivity(ctx: Ctx, issueId: number): Promise<ActivityEntry[]> {
  const rows = await ctx.db
    .selectFrom("issue_activity")
    .leftJoin("users", "users.id", "issue_activity.user_id")
    .select([
      "issue_activity.id",
      "issue_activity.type",
      "issue_activity.data",
      "issue_activity.created_at",
      "users.id as uid",
      "users.email",
      "users.name",
    ])
    .where("issue_activity.issue_id", "=", issueId)
    .orderBy("issue_activity.created_at", "desc")
    .orderBy("issue_activity.id", "desc")
    .limit(200)
    .execute();
  return rows.map((r) => ({
    id: r.id,
    type: r.type,
    data: JSON.parse(r.data) as Record<string, unknown>,
    createdAt: r.created_at,
    user: r.uid !== null && r.email !== null ? { id: r.uid, email: r.email, name: r.name ?? "" } : null,
  }));
}
