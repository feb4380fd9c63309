import { environmentsSeen } from "./issue-search";
import type { Kysely } from "kysely";
import type { HealthWindow, ReleaseHealthStore, SessionCountRow, WorstCountRow } from "../core/ports/release-health";
import type { DB } from "./schema";

const HOUR = 3_600_000;
const DAY = 86_400_000;
const n = (v: number | string | bigint | null | undefined) => Number(v ?? 0);

/** Release health over the main database, for SQLite and PostgreSQL alike (src/core/ports/release-health.ts). */
export class KyselyReleaseHealthStore implements ReleaseHealthStore {
  constructor(private readonly db: Kysely<DB>) {}

  private counts(projectId: number, window: HealthWindow) {
    let q = this.db
      .selectFrom("session_counts")
      .where("project_id", "=", projectId)
      .where("hour", ">=", Math.floor(window.since / HOUR) * HOUR);
    if (window.environment !== null) q = q.where("environment", "=", window.environment);
    return q;
  }

  async sessionCounts(projectId: number, releases: readonly string[], window: HealthWindow): Promise<SessionCountRow[]> {
    if (releases.length === 0) return [];
    const rows = await this.counts(projectId, window)
      .select((eb) => ["release", "hour", "status", eb.fn.sum<number | string>("quantity").as("quantity")])
      .where("release", "in", releases)
      .groupBy(["release", "hour", "status"])
      .execute();
    return rows.map((r) => ({ release: r.release, hour: n(r.hour), status: r.status, quantity: n(r.quantity) }));
  }

  async startedByRelease(projectId: number, window: HealthWindow): Promise<Map<string, number>> {
    const rows = await this.counts(projectId, window)
      .select((eb) => ["release", eb.fn.sum<number | string>("quantity").as("quantity")])
      .where("status", "=", "started")
      .groupBy("release")
      .execute();
    return new Map(rows.map((r) => [r.release, n(r.quantity)]));
  }

  private members(projectId: number, kind: "user" | "session", releases: readonly string[], window: HealthWindow) {
    const size = kind === "user" ? DAY : HOUR;
    let q = this.db
      .selectFrom("session_distinct")
      .where("project_id", "=", projectId)
      .where("kind", "=", kind)
      .where("bucket", ">=", Math.floor(window.since / size) * size)
      .where("release", "in", releases);
    if (window.environment !== null) q = q.where("environment", "=", window.environment);
    return q;
  }

  async usersByWorst(projectId: number, releases: readonly string[], window: HealthWindow): Promise<WorstCountRow[]> {
    if (releases.length === 0) return [];
    // A user seen on several days (or in several environments) counts once, with their worst status.
    const perUser = this.members(projectId, "user", releases, window)
      .select((eb) => ["release", "member", eb.fn.max<number>("worst").as("w")])
      .groupBy(["release", "member"]);
    const rows = await this.db
      .selectFrom(perUser.as("u"))
      .select((eb) => ["u.release", "u.w", eb.fn.countAll<number | string>().as("n")])
      .groupBy(["u.release", "u.w"])
      .execute();
    return rows.map((r) => ({ release: r.release, worst: n(r.w), n: n(r.n) }));
  }

  async erroredSessions(
    projectId: number,
    releases: readonly string[],
    window: HealthWindow,
  ): Promise<(WorstCountRow & { hour: number })[]> {
    if (releases.length === 0) return [];
    const rows = await this.members(projectId, "session", releases, window)
      .select((eb) => ["release", "bucket", "worst", eb.fn.countAll<number | string>().as("n")])
      .groupBy(["release", "bucket", "worst"])
      .execute();
    return rows.map((r) => ({ release: r.release, hour: n(r.bucket), worst: n(r.worst), n: n(r.n) }));
  }

  async environments(projectId: number): Promise<string[]> {
    const sessions = await this.db
      .selectFrom("session_counts")
      .select("environment")
      .distinct()
      .where("project_id", "=", projectId)
      .execute();
    const events = await environmentsSeen(this.db, [projectId], 1000);
    const deploys = await this.db
      .selectFrom("deploys")
      .innerJoin("release_projects", "release_projects.release_id", "deploys.release_id")
      .select("deploys.environment")
      .distinct()
      .where("release_projects.project_id", "=", projectId)
      .execute();
    const all = new Set([...sessions.map((r) => r.environment), ...events, ...deploys.map((r) => r.environment)]);
    return [...all].filter((e) => e !== "").sort();
  }

  async versionsIn(projectId: number, environment: string): Promise<Set<string>> {
    const sessions = await this.db
      .selectFrom("session_counts")
      .select("release")
      .distinct()
      .where("project_id", "=", projectId)
      .where("environment", "=", environment)
      .execute();
    const events = await this.db
      .selectFrom("events")
      .select("release")
      .distinct()
      .where("project_id", "=", projectId)
      .where("environment", "=", environment)
      .where("release", "is not", null)
      .execute();
    const deploys = await this.db
      .selectFrom("deploys")
      .innerJoin("release_projects", "release_projects.release_id", "deploys.release_id")
      .innerJoin("releases", "releases.id", "deploys.release_id")
      .select("releases.version")
      .distinct()
      .where("release_projects.project_id", "=", projectId)
      .where("deploys.environment", "=", environment)
      .execute();
    const out = new Set<string>();
    for (const r of sessions) out.add(r.release);
    for (const r of events) if (r.release !== null) out.add(r.release);
    for (const r of deploys) out.add(r.version);
    return out;
  }
}
