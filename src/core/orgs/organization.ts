/** An organization as core sees it. Flags are 0/1, as stored on both databases. */
export interface Organization {
  id: number;
  slug: string;
  name: string;
  /** 1 for the self-monitoring organization (src/core/selfmon). */
  is_internal: number;
  created_at: number;
  /** 1: members see every project (Sentry's default); 0: only their teams' projects. */
  open_membership: number;
  /** 1: members without two-factor sign-in are sent to enrol before anything else. */
  require_2fa: number;
}
