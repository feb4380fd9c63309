import type { Kysely } from "kysely";
import type { Issue, IssuePerson, IssueProject, IssueTeam } from "../core/issues/issue";
import type {
  ActivityEntry,
  IssueHour,
  IssueReader,
  IssueTagCount,
  TagKeyCount,
  TagValueCount,
  TagValueOrder,
} from "../core/ports/issue-reader";
import type { DB } from "./schema";

/** What issue pages read about issues, over the main database (src/core/ports/issue-reader.ts). */
export class KyselyIssueReader implements IssueReader {
  constructor(private readonly db: Kysely<DB>) {}

  async inOrganization(organizationId: number, issueId: number): Promise<{ issue: Issue; project: IssueProject } | null> {
    const row = await this.db
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
      .where("projects.organization_id", "=", organizationId)
      .executeTakeFirst();
    if (!row) return null;
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

  async organizationSlugOf(issueId: number): Promise<string | null> {
    const row = await this.db
      .selectFrom("issues")
      .innerJoin("projects", "projects.id", "issues.project_id")
      .innerJoin("organizations", "organizations.id", "projects.organization_id")
      .select("organizations.slug")
      .where("issues.id", "=", issueId)
      .executeTakeFirst();
    return row?.slug ?? null;
  }

  async byShortNumber(organizationId: number, projectSlug: string, shortNumber: number): Promise<Issue | null> {
    const issue = await this.db
      .selectFrom("issues")
      .innerJoin("projects", "projects.id", "issues.project_id")
      .selectAll("issues")
      .where("projects.organization_id", "=", organizationId)
      .where("projects.slug", "=", projectSlug)
      .where("issues.short_number", "=", shortNumber)
      .executeTakeFirst();
    return issue ?? null;
  }

  async tags(issueId: number): Promise<IssueTagCount[]> {
    const rows = await this.db
      .selectFrom("issue_tags")
      .select(["key", "value", "times_seen"])
      .where("issue_id", "=", issueId)
      .orderBy("key")
      .orderBy("times_seen", "desc")
      .execute();
    return rows.map((r) => ({ key: r.key, value: r.value, timesSeen: r.times_seen }));
  }

  async hourly(issueIds: readonly number[], from: number, to: number): Promise<IssueHour[]> {
    if (issueIds.length === 0) return [];
    const rows = await this.db
      .selectFrom("issue_hourly")
      .select(["issue_id", "hour", "count"])
      .where("issue_id", "in", issueIds)
      .where("hour", ">=", from)
      .where("hour", "<", to)
      .execute();
    return rows.map((r) => ({ issueId: r.issue_id, hour: r.hour, count: r.count }));
  }

  async activity(issueId: number, limit: number): Promise<ActivityEntry[]> {
    const rows = await this.db
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
      .limit(limit)
      .execute();
    return rows.map((r) => ({
      id: r.id,
      type: r.type,
      data: JSON.parse(r.data) as Record<string, unknown>,
      createdAt: r.created_at,
      user: r.uid !== null && r.email !== null ? { id: r.uid, email: r.email, name: r.name ?? "" } : null,
    }));
  }

  async bookmarked(issueIds: readonly number[], userId: number): Promise<ReadonlySet<number>> {
    if (issueIds.length === 0) return new Set();
    const rows = await this.db
      .selectFrom("issue_bookmarks")
      .select("issue_id")
      .where("issue_id", "in", issueIds)
      .where("user_id", "=", userId)
      .execute();
    return new Set(rows.map((r) => r.issue_id));
  }

  async commentCounts(issueIds: readonly number[]): Promise<Map<number, number>> {
    if (issueIds.length === 0) return new Map();
    const rows = await this.db
      .selectFrom("issue_activity")
      .select(["issue_id", (eb) => eb.fn.countAll<number>().as("n")])
      .where("issue_id", "in", issueIds)
      .where("type", "=", "note")
      .groupBy("issue_id")
      .execute();
    return new Map(rows.map((r) => [r.issue_id, Number(r.n)]));
  }

  async people(userIds: readonly number[]): Promise<IssuePerson[]> {
    if (userIds.length === 0) return [];
    return this.db.selectFrom("users").select(["id", "email", "name"]).where("id", "in", userIds).execute();
  }

  async teams(teamIds: readonly number[]): Promise<IssueTeam[]> {
    if (teamIds.length === 0) return [];
    return this.db.selectFrom("teams").select(["id", "slug", "name"]).where("id", "in", teamIds).execute();
  }

  async hashes(issueId: number): Promise<string[]> {
    const rows = await this.db.selectFrom("issue_hashes").select("hash").where("issue_id", "=", issueId).orderBy("hash").execute();
    return rows.map((r) => r.hash);
  }

  async recentTagValues(
    projectIds: readonly number[],
    limits: { issues: number; rows: number },
  ): Promise<{ key: string; value: string }[]> {
    if (projectIds.length === 0) return [];
    const recent = this.db
      .selectFrom("issues")
      .select("issues.id")
      .where("issues.project_id", "in", projectIds)
      .orderBy("issues.last_seen", "desc")
      .limit(limits.issues);
    const rows = await this.db
      .selectFrom("issue_tags")
      .select(["issue_tags.key", "issue_tags.value", (eb) => eb.fn.sum<number>("issue_tags.times_seen").as("n")])
      .where("issue_tags.issue_id", "in", recent)
      .groupBy(["issue_tags.key", "issue_tags.value"])
      .orderBy("n", "desc")
      .orderBy("issue_tags.key")
      .orderBy("issue_tags.value")
      .limit(limits.rows)
      .execute();
    return rows.map((r) => ({ key: r.key, value: r.value }));
  }

  async tagValues(
    projectIds: readonly number[],
    key: string,
    options: { prefix?: string | undefined; limit: number },
  ): Promise<TagValueCount[]> {
    if (projectIds.length === 0) return [];
    let q = this.db
      .selectFrom("issue_tags")
      .innerJoin("issues", "issues.id", "issue_tags.issue_id")
      .select([
        "issue_tags.value",
        (eb) => eb.fn.sum<number>("issue_tags.times_seen").as("n"),
        (eb) => eb.fn.min<number>("issue_tags.first_seen").as("first"),
        (eb) => eb.fn.max<number>("issue_tags.last_seen").as("last"),
      ])
      .where("issues.project_id", "in", projectIds)
      .where("issue_tags.key", "=", key);
    // A prefix compare rather than LIKE: no wildcard escaping, and the same on both dialects.
    if (options.prefix) q = q.where("issue_tags.value", ">=", options.prefix).where("issue_tags.value", "<", `${options.prefix}\u{10FFFF}`);
    const rows = await q.groupBy("issue_tags.value").orderBy("n", "desc").orderBy("issue_tags.value").limit(options.limit).execute();
    // PostgreSQL's sum() of bigint is numeric, which pg returns as a string.
    return rows.map((r) => ({ value: r.value, count: Number(r.n), firstSeen: Number(r.first), lastSeen: Number(r.last) }));
  }

  async issueTagKeys(issueId: number, keys?: readonly string[]): Promise<TagKeyCount[]> {
    if (keys?.length === 0) return [];
    let q = this.db
      .selectFrom("issue_tags")
      .select(["key", (eb) => eb.fn.sum<number>("times_seen").as("n"), (eb) => eb.fn.countAll<number>().as("unique")])
      .where("issue_id", "=", issueId);
    if (keys) q = q.where("key", "in", [...keys]);
    const rows = await q.groupBy("key").orderBy("key").execute();
    return rows.map((r) => ({ key: r.key, totalValues: Number(r.n), uniqueValues: Number(r.unique) }));
  }

  async issueTagValues(
    issueId: number,
    key: string,
    page: { order: TagValueOrder; offset: number; limit: number },
  ): Promise<TagValueCount[]> {
    const column = ({ count: "times_seen", lastSeen: "last_seen", firstSeen: "first_seen" } as const)[page.order.by];
    const rows = await this.db
      .selectFrom("issue_tags")
      .select(["value", "times_seen", "first_seen", "last_seen"])
      .where("issue_id", "=", issueId)
      .where("key", "=", key)
      .orderBy(column, page.order.descending ? "desc" : "asc")
      .orderBy("value")
      .offset(page.offset)
      .limit(page.limit)
      .execute();
    return rows.map((r) => ({
      value: r.value,
      count: Number(r.times_seen),
      firstSeen: Number(r.first_seen),
      lastSeen: Number(r.last_seen),
    }));
  }

  async tagKeys(
    projectIds: readonly number[],
    options: { since?: number | undefined; limit: number },
  ): Promise<{ key: string; totalValues: number }[]> {
    if (projectIds.length === 0) return [];
    let q = this.db
      .selectFrom("issue_tags")
      .innerJoin("issues", "issues.id", "issue_tags.issue_id")
      .select(["issue_tags.key", (eb) => eb.fn.sum<number>("issue_tags.times_seen").as("n")])
      .where("issues.project_id", "in", [...projectIds]);
    // An issue not seen since then has no value seen since then: its index narrows the join first.
    if (options.since !== undefined)
      q = q.where("issues.last_seen", ">=", options.since).where("issue_tags.last_seen", ">=", options.since);
    const rows = await q.groupBy("issue_tags.key").orderBy("n", "desc").orderBy("issue_tags.key").limit(options.limit).execute();
    return rows.map((r) => ({ key: r.key, totalValues: Number(r.n) }));
  }
}
