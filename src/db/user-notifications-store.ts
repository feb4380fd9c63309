import type { Kysely } from "kysely";
import {
  DEFAULT_CHOICES,
  type ChangeFacts,
  type NotificationChoices,
  type NotificationPreferences,
  type NotificationTopic,
  type Participant,
  type ParticipationReason,
  type UserNotificationStore,
} from "../core/ports/user-notifications";
import type { DB } from "./schema";

const COLUMN = { issueAlerts: "issue_alerts", assigned: "assigned", comments: "comments", resolutions: "resolutions" } as const;

/** Preferences (migration 0028) and an issue's participants, over both dialects (decision 0021). */
export class KyselyUserNotificationStore implements UserNotificationStore {
  constructor(private readonly db: Kysely<DB>) {}

  async preferences(userId: number): Promise<NotificationPreferences> {
    const row = await this.db.selectFrom("notification_preferences").selectAll().where("user_id", "=", userId).executeTakeFirst();
    const projects = await this.db
      .selectFrom("project_alert_preferences")
      .select(["project_id", "issue_alerts"])
      .where("user_id", "=", userId)
      .orderBy("project_id")
      .execute();
    return {
      choices: row
        ? {
            issueAlerts: row.issue_alerts === 1,
            assigned: row.assigned === 1,
            comments: row.comments === 1,
            resolutions: row.resolutions === 1,
          }
        : { ...DEFAULT_CHOICES },
      projects: projects.map((p) => ({ projectId: p.project_id, issueAlerts: p.issue_alerts === 1 })),
    };
  }

  async setChoices(userId: number, choices: NotificationChoices, now: number): Promise<void> {
    const values = {
      issue_alerts: choices.issueAlerts ? 1 : 0,
      assigned: choices.assigned ? 1 : 0,
      comments: choices.comments ? 1 : 0,
      resolutions: choices.resolutions ? 1 : 0,
      updated_at: now,
    };
    await this.db
      .insertInto("notification_preferences")
      .values({ user_id: userId, ...values })
      .onConflict((oc) => oc.column("user_id").doUpdateSet(values))
      .execute();
  }

  async setProjectAlerts(userId: number, projectId: number, issueAlerts: boolean | null, now: number): Promise<void> {
    if (issueAlerts === null) {
      await this.db.deleteFrom("project_alert_preferences").where("user_id", "=", userId).where("project_id", "=", projectId).execute();
      return;
    }
    const values = { issue_alerts: issueAlerts ? 1 : 0, updated_at: now };
    await this.db
      .insertInto("project_alert_preferences")
      .values({ user_id: userId, project_id: projectId, ...values })
      .onConflict((oc) => oc.columns(["user_id", "project_id"]).doUpdateSet(values))
      .execute();
  }

  async optedOut(userIds: readonly number[], topic: NotificationTopic, projectId: number): Promise<Set<number>> {
    if (userIds.length === 0) return new Set();
    const ids = [...new Set(userIds)];
    const own = await this.db
      .selectFrom("notification_preferences")
      .select(["user_id", COLUMN[topic]])
      .where("user_id", "in", ids)
      .execute();
    const on = new Map<number, boolean>(own.map((r) => [r.user_id, r[COLUMN[topic]] === 1]));
    if (topic === "issueAlerts") {
      const overrides = await this.db
        .selectFrom("project_alert_preferences")
        .select(["user_id", "issue_alerts"])
        .where("project_id", "=", projectId)
        .where("user_id", "in", ids)
        .execute();
      for (const o of overrides) on.set(o.user_id, o.issue_alerts === 1);
    }
    return new Set(ids.filter((id) => on.get(id) === false));
  }

  async participants(issueId: number, beforeSeq: number): Promise<Participant[]> {
    const issue = await this.db
      .selectFrom("issues")
      .select(["assignee_id", "assignee_team_id"])
      .where("id", "=", issueId)
      .executeTakeFirst();
    if (!issue) return [];
    const found: Participant[] = await this.assignees(issueId, { userId: issue.assignee_id, teamId: issue.assignee_team_id });
    const commenters = await this.members(issueId)
      .innerJoin("issue_changes", "issue_changes.user_id", "users.id")
      .where("issue_changes.issue_id", "=", issueId)
      .where("issue_changes.kind", "=", "commented")
      .where("issue_changes.seq", "<", beforeSeq)
      .execute();
    const bookmarks = await this.members(issueId)
      .innerJoin("issue_bookmarks", "issue_bookmarks.user_id", "users.id")
      .where("issue_bookmarks.issue_id", "=", issueId)
      .execute();
    found.push(...tagged(commenters, "commenter"), ...tagged(bookmarks, "bookmark"));
    const seen = new Set<number>();
    return found.filter((p) => !seen.has(p.userId) && (seen.add(p.userId), true));
  }

  async assignees(issueId: number, assignee: { userId: number | null; teamId: number | null }): Promise<Participant[]> {
    if (assignee.userId !== null) return tagged(await this.members(issueId).where("users.id", "=", assignee.userId).execute(), "assignee");
    if (assignee.teamId === null) return [];
    const team = await this.members(issueId)
      .innerJoin("team_members", "team_members.user_id", "users.id")
      .innerJoin("teams", "teams.id", "team_members.team_id")
      .whereRef("teams.organization_id", "=", "projects.organization_id")
      .where("teams.id", "=", assignee.teamId)
      .execute();
    return tagged(team, "team");
  }

  /** Users who are members of the organization of the issue's project, with their id and email, by id. */
  private members(issueId: number) {
    return this.db
      .selectFrom("issues")
      .innerJoin("projects", "projects.id", "issues.project_id")
      .innerJoin("memberships", "memberships.organization_id", "projects.organization_id")
      .innerJoin("users", "users.id", "memberships.user_id")
      .select(["users.id as userId", "users.email"])
      .distinct()
      .where("issues.id", "=", issueId)
      .orderBy("users.id");
  }

  async change(seq: number): Promise<ChangeFacts | null> {
    const row = await this.db
      .selectFrom("issue_changes")
      .leftJoin("users", "users.id", "issue_changes.user_id")
      .select(["issue_changes.data", "users.name", "users.email"])
      .where("issue_changes.seq", "=", seq)
      .executeTakeFirst();
    if (!row) return null;
    return { data: JSON.parse(row.data) as Record<string, unknown>, actorName: row.name, actorEmail: row.email };
  }
}

function tagged(rows: { userId: number; email: string }[], reason: ParticipationReason): Participant[] {
  return rows.map((r) => ({ ...r, reason }));
}
