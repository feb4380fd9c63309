import { buildDsn } from "../../core/auth/dsn";
import type { Organization } from "../../core/orgs/organization";
import type { Project, ProjectKey } from "../../core/projects/project";
import type { ProjectSurroundings } from "../../core/projects/queries";

const iso = (ms: number) => new Date(ms).toISOString();

/** Sentry's organization summary (`GET /api/0/organizations/`). */
export function serializeOrganization(org: Organization) {
  return {
    id: String(org.id),
    slug: org.slug,
    name: org.name,
    dateCreated: iso(org.created_at),
    status: { id: "active", name: "active" },
    // Sentry's summary fields that clients parse (sentry-cli's `organizations list` requires them).
    isEarlyAdopter: false,
    require2FA: false,
    requireEmailVerification: false,
    features: [] as string[],
    avatar: { avatarType: "letter_avatar", avatarUuid: null },
  };
}

/** Sentry's teams of a project: `teams`, and the first as the older `team` that some clients still read. */
export function projectTeams(about: ProjectSurroundings | undefined) {
  const teams = (about?.teams ?? []).map((t) => ({ id: String(t.id), slug: t.slug, name: t.name }));
  return { team: teams[0] ?? null, teams };
}

/** Sentry's project shape in `GET /api/0/organizations/{org}/projects/`. */
export function serializeProject(project: Project, org: Organization, isMember: boolean, about?: ProjectSurroundings) {
  return {
    id: String(project.id),
    slug: project.slug,
    name: project.name,
    platform: project.platform,
    dateCreated: iso(project.created_at),
    isMember,
    hasAccess: true,
    isBookmarked: false,
    status: "active",
    features: [] as string[],
    ...projectTeams(about),
    environments: about?.environments ?? [],
    organization: serializeOrganization(org),
  };
}

/** Sentry's client key shape (`GET /api/0/projects/{org}/{project}/keys/`); the DSN lives under `dsn.public`. */
export function serializeKey(key: ProjectKey, publicUrl: string) {
  const base = new URL(publicUrl);
  const prefix = base.pathname.replace(/\/+$/, "");
  const api = `${base.origin}${prefix}/api/${key.project_id}`;
  return {
    id: key.public_key,
    name: key.label,
    label: key.label,
    public: key.public_key,
    secret: key.secret_key,
    projectId: key.project_id,
    isActive: key.is_active === 1,
    rateLimit:
      key.rate_limit_count !== null && key.rate_limit_window_seconds !== null
        ? { count: key.rate_limit_count, window: key.rate_limit_window_seconds }
        : null,
    dsn: {
      public: buildDsn(publicUrl, key.public_key, key.project_id),
      secret: buildDsn(publicUrl, key.public_key, key.project_id, key.secret_key),
      store: `${api}/store/`,
      security: `${api}/security/?sentry_key=${key.public_key}`,
      minidump: `${api}/minidump/?sentry_key=${key.public_key}`,
      csp: `${api}/csp-report/?sentry_key=${key.public_key}`,
    },
    dateCreated: iso(key.created_at),
  };
}
