/**
 * A project and its DSN keys as core and the pages read them. The field names are the stored
 * columns' (the web API serializers and the pages use them as they are); src/db's rows satisfy
 * these interfaces.
 */
export interface Project {
  id: number;
  organization_id: number;
  slug: string;
  name: string;
  platform: string;
  created_at: number;
  /** The grouping strategy version new events are grouped with (src/core/grouping/config.ts). */
  grouping_config: string;
  /** During an upgrade's transition: the version before, whose hashes still find old issues. */
  grouping_previous_config: string | null;
  /** When the transition ends (ms); after it only `grouping_config` is computed. */
  grouping_transition_until: number | null;
}

export interface ProjectKey {
  id: number;
  project_id: number;
  label: string;
  public_key: string;
  secret_key: string;
  /** 1 when the key is accepted, 0 when disabled. */
  is_active: number;
  /** Events accepted per window through this key; null means no per-key limit. */
  rate_limit_count: number | null;
  rate_limit_window_seconds: number | null;
  created_at: number;
}

/** A project's quota for one category (`*` for all together): events per window. */
export interface StoredQuota {
  project_id: number;
  category: string;
  limit_count: number;
  window_seconds: number;
}
