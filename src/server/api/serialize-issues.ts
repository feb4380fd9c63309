import type { Issue } from "../../core/issues/issue";
import { shortId, type StoredEvent } from "../../core/issues/queries";
import type { Project } from "../../core/projects/project";
import type { IssueExtraInfo } from "../../core/issues/extras";
import { storedEventPayload } from "../../core/issues/event-payload";
import { isoText } from "../../core/time-text";

// Stored times are shown as text when no Date holds them, rather than failing the answer.
const iso = isoText;

type IssueExtras = IssueExtraInfo;

/** Sentry's issue ("group") shape, as `GET /api/0/organizations/{org}/issues/{id}/` answers it. */
export function serializeIssue(
  issue: Issue,
  project: Pick<Project, "id" | "slug" | "name" | "platform">,
  publicUrl: string,
  orgSlug: string,
  extras: IssueExtras,
  detail?: { unhandled: boolean },
) {
  const metadata = JSON.parse(issue.metadata) as Record<string, string>;
  const statusDetails: Record<string, unknown> = {};
  if (issue.resolved_next_release) statusDetails.inNextRelease = true;
  else if (issue.resolved_in_release) statusDetails.inRelease = issue.resolved_in_release;
  if (issue.ignore_until !== null) statusDetails.ignoreUntil = iso(issue.ignore_until);
  if (issue.ignore_count !== null) statusDetails.ignoreCount = issue.ignore_count;
  if (issue.ignore_users !== null) statusDetails.ignoreUserCount = issue.ignore_users;
  const HOUR = 3_600_000;
  const end = Math.floor(extras.now / HOUR) * HOUR;
  return {
    id: String(issue.id),
    shortId: shortId(project, issue),
    title: issue.title,
    culprit: issue.culprit,
    permalink: `${publicUrl}/orgs/${orgSlug}/issues/${issue.id}`,
    logger: null,
    level: issue.level,
    status: issue.status,
    substatus: issue.substatus,
    statusDetails,
    isPublic: false,
    platform: project.platform,
    project: { id: String(project.id), name: project.name, slug: project.slug, platform: project.platform },
    type: issue.type,
    issueType: "error",
    issueCategory: "error",
    metadata,
    numComments: extras.comments,
    assignedTo: extras.assignee
      ? { type: "user", id: String(extras.assignee.id), name: extras.assignee.name || extras.assignee.email, email: extras.assignee.email }
      : extras.assigneeTeam
        ? { type: "team", id: String(extras.assigneeTeam.id), name: extras.assigneeTeam.slug }
        : null,
    isBookmarked: extras.bookmarked,
    isSubscribed: false,
    hasSeen: false,
    annotations: [],
    count: String(issue.times_seen),
    userCount: issue.user_count,
    firstSeen: iso(issue.first_seen),
    lastSeen: iso(issue.last_seen),
    firstRelease: issue.first_release ? { version: issue.first_release } : null,
    lastRelease: issue.last_release ? { version: issue.last_release } : null,
    // The issue detail's own fields; no user feedback is linked to issues yet, nor who has seen one.
    ...(detail
      ? {
          isUnhandled: detail.unhandled,
          lifetime: {
            count: String(issue.times_seen),
            userCount: issue.user_count,
            firstSeen: iso(issue.first_seen),
            lastSeen: iso(issue.last_seen),
            stats: null,
          },
          userReportCount: 0,
          seenBy: [],
          participants: [],
          pluginActions: [],
          pluginIssues: [],
        }
      : {}),
    ...(extras.hourly
      ? { stats: { "24h": extras.hourly.map((n, i) => [Math.floor((end - (extras.hourly!.length - 1 - i) * HOUR) / 1000), n]) } }
      : {}),
  };
}

/** A user field as text, whatever the stored payload holds: sentry-cli fails on any field that is not a string. */
const text = (value: unknown): string | null => (value === undefined || value === null ? null : String(value));

/**
 * Sentry's short event shape, as a project's event list answers it: what `sentry-cli events
 * list` parses (`eventID`, `dateCreated`, `title`, `user` with string fields, `tags` as pairs).
 */
export function serializeEventSummary(stored: StoredEvent) {
  const e = storedEventPayload(stored);
  const user = e.user
    ? { id: text(e.user.id), username: text(e.user.username), email: text(e.user.email), ip_address: text(e.user.ip_address) }
    : null;
  return {
    id: stored.event_id,
    "event.type": e.exception ? "error" : "default",
    eventID: stored.event_id,
    groupID: stored.issue_id === null ? null : String(stored.issue_id),
    projectID: String(stored.project_id),
    title: stored.title,
    message: e.logentry?.formatted ?? "",
    culprit: e.culprit ?? null,
    platform: e.platform,
    dateCreated: iso(e.timestamp * 1000),
    user,
    tags: (e.tags ?? []).map(([key, value]) => ({ key: String(key), value: String(value) })),
  };
}
