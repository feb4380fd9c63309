/**
 * Release health as stored: session counts per hour and status, and the
 * distinct users and errored sessions kept by hash (migration 0020), read per project and
 * release, in one environment or all of them. Implemented over the main database by
 * src/db/release-health-store.ts; the numbers are made in src/core/releases/health.ts.
 */

export interface HealthWindow {
  /** One environment, or null for all of them. */
  environment: string | null;
  /** Start of the window (ms); buckets that start before it are left out. */
  since: number;
}

export interface SessionCountRow {
  release: string;
  hour: number;
  status: string;
  quantity: number;
}

export interface WorstCountRow {
  release: string;
  worst: number;
  n: number;
}

export interface ReleaseHealthStore {
  /** Session counts per release, hour and status (environments summed). */
  sessionCounts(projectId: number, releases: readonly string[], window: HealthWindow): Promise<SessionCountRow[]>;
  /** Sessions started per release of the project, every release (for adoption). */
  startedByRelease(projectId: number, window: HealthWindow): Promise<Map<string, number>>;
  /** Users per release by the worst status each had in the window: a user is counted once. */
  usersByWorst(projectId: number, releases: readonly string[], window: HealthWindow): Promise<WorstCountRow[]>;
  /** Sessions that reported errors, per release and started hour, by the worst status each had. */
  erroredSessions(projectId: number, releases: readonly string[], window: HealthWindow): Promise<(WorstCountRow & { hour: number })[]>;
  /** The environments the project's sessions, events and deploys name, sorted. */
  environments(projectId: number): Promise<string[]>;
  /** The releases of the project seen in one environment: by its sessions, its events or a deploy. */
  versionsIn(projectId: number, environment: string): Promise<Set<string>>;
}
