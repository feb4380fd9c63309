/**
 * Projects as core needs them from storage: finding and creating them, their grouping
 * version, ingest options, quotas and first issue. Implemented for both dialects by
 * src/db/project-store.ts; DSN keys have their own port (src/core/ports/project-keys.ts).
 */
import type { ValidRule } from "../alerts/rule-schema";
import type { ProjectGrouping } from "../grouping/index";
import type { Project, ProjectKey, StoredQuota } from "../projects/project";

export interface NewProjectRecord {
  orgSlug: string;
  slug: string;
  name: string;
  platform: string;
  /** The owning team's slug; without one the organization's default team, if it has one. */
  teamSlug?: string;
  /** The pair of the project's first DSN key, labelled "Default". */
  key: { publicKey: string; secretKey: string };
  /** The alert rule the project starts with, stored as its default rule. */
  rule: ValidRule;
  now: number;
}

/** A created project with its first key, or why nothing was created. */
export type CreatedProject = { project: Project; key: ProjectKey } | { refused: "no_organization" | "slug_taken" | "no_team" };

/** A project's stored option documents (JSON text, absent when never saved) and grouping (null for no such project). */
export interface StoredOptions {
  filters?: string;
  scrubbing?: string;
  grouping: ProjectGrouping | null;
}

export interface ProjectStore {
  /** The id of the organization with this slug; null when there is none. */
  organizationId(slug: string): Promise<number | null>;
  /** The organization's projects, by slug. */
  list(orgId: number): Promise<Project[]>;
  bySlug(orgId: number, slug: string): Promise<Project | null>;
  /**
   * Creates the project, links it to its team, and stores its first key and alert rule, all
   * in one transaction; refuses (writing nothing) an unknown organization or team or a slug
   * the organization already has.
   */
  create(project: NewProjectRecord): Promise<CreatedProject>;
  grouping(projectId: number): Promise<ProjectGrouping | null>;
  setGrouping(projectId: number, grouping: ProjectGrouping): Promise<void>;
  options(projectId: number): Promise<StoredOptions>;
  /** Replaces one option document; the other starts as `{}` when the project had none. */
  saveOption(projectId: number, option: "filters" | "scrubbing", json: string): Promise<void>;
  /** The project's quotas, by category. */
  quotas(projectId: number): Promise<StoredQuota[]>;
  /** Sets the quota of its category, replacing an earlier one. */
  setQuota(quota: StoredQuota): Promise<void>;
  removeQuota(projectId: number, category: string): Promise<void>;
  /** The project's oldest issue (by first seen, then id); null while it has none. */
  firstIssue(projectId: number): Promise<{ id: number; title: string } | null>;
}
