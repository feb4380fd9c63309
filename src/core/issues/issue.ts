import type { Project } from "../projects/project";
import type { IssueState } from "./state";

/**
 * An issue as pages, the API and triage see it: the stored issue row's columns, by their names.
 * A plain domain type, so that core and the ports name issues without reaching into storage;
 * the issues table's type (src/db/schema.ts) is made from it.
 */
export interface Issue extends IssueState {
  id: number;
  project_id: number;
  /** Per-project number behind the short id (`PROJECT-1A`). */
  short_number: number;
  type: string;
  title: string;
  culprit: string;
  level: string;
  /** JSON: `{type, value, filename, function}` as Sentry's `metadata`. */
  metadata: string;
  first_seen: number;
  last_seen: number;
  first_release: string | null;
  first_environment: string | null;
  last_environment: string | null;
  assignee_team_id: number | null;
  /** The issue it was merged into (then it is kept for its short id, hidden from lists). */
  merged_into_id: number | null;
  grouping_config: string;
}

/** The project an issue page shows beside the issue. */
export type IssueProject = Project;

/** A person as issue pages name them: an assignee, or who wrote an activity entry. */
export interface IssuePerson {
  id: number;
  email: string;
  name: string;
}

/** A team an issue can be assigned to. */
export interface IssueTeam {
  id: number;
  slug: string;
  name: string;
}

/** An issue's short id as users know it: the project's slug and the issue's number in base 36 (`WEB-1A`). */
export const shortId = (project: Pick<IssueProject, "slug">, issue: Pick<Issue, "short_number">) =>
  `${project.slug.toUpperCase()}-${issue.short_number.toString(36).toUpperCase()}`;
