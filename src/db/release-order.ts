import type { Kysely } from "kysely";
import type { FirstSeen } from "../core/issues/releases";
import { FirstSeenCache, releaseKey, type ReleaseOrder, type ReleaseRef } from "../core/ports/release-order";
import type { DB } from "./schema";

/** Versions per statement: well under SQLite's bound parameters. */
const CHUNK = 400;

/**
 * Release first-seen times over the main database (src/core/ports/release-order.ts): a release's
 * `date_created` in the project's organization, and its id to order releases created in the
 * same millisecond. Times read are cached (bounded) for the next batches.
 */
export class KyselyReleaseOrder implements ReleaseOrder {
  constructor(
    private readonly db: Kysely<DB>,
    private readonly cache = new FirstSeenCache(),
  ) {}

  /**
   * The same order, cache included, reading through a transaction the caller holds: SQLite has
   * one connection, so a read outside the digest's write transaction would wait for it to end.
   */
  within(trx: Kysely<DB>): KyselyReleaseOrder {
    return new KyselyReleaseOrder(trx, this.cache);
  }

  async firstSeen(refs: readonly ReleaseRef[]): Promise<Map<string, FirstSeen>> {
    const out = new Map<string, FirstSeen>();
    const missing = new Map<string, ReleaseRef>();
    for (const r of refs) {
      const key = releaseKey(r.projectId, r.version);
      const cached = this.cache.get(key);
      if (cached) out.set(key, cached);
      else missing.set(key, r);
    }
    if (missing.size === 0) return out;
    const projectIds = [...new Set([...missing.values()].map((r) => r.projectId))];
    const versions = [...new Set([...missing.values()].map((r) => r.version))];
    for (let i = 0; i < versions.length; i += CHUNK) {
      const rows = await this.db
        .selectFrom("releases as r")
        .innerJoin("projects as p", "p.organization_id", "r.organization_id")
        .select(["p.id as project_id", "r.version", "r.date_created", "r.id"])
        .where("p.id", "in", projectIds)
        .where("r.version", "in", versions.slice(i, i + CHUNK))
        .execute();
      for (const row of rows) {
        const key = releaseKey(row.project_id, row.version);
        if (!missing.has(key)) continue;
        const t = { at: Number(row.date_created), id: row.id };
        out.set(key, t);
        this.cache.set(key, t);
      }
    }
    return out;
  }

  versions(projectId: number, limit: number): Promise<string[]> {
    return newestVersions(this.db, projectId, limit);
  }
}

/** A project's release versions, newest created first (ties by id). */
export async function newestVersions(db: Kysely<DB>, projectId: number, limit: number): Promise<string[]> {
  const rows = await db
    .selectFrom("releases as r")
    .innerJoin("release_projects as rp", "rp.release_id", "r.id")
    .select("r.version")
    .where("rp.project_id", "=", projectId)
    .orderBy("r.date_created", "desc")
    .orderBy("r.id", "desc")
    .limit(limit)
    .execute();
  return rows.map((r) => r.version);
}
