import type { Kysely } from "kysely";
import type { KeyRateLimitValue, NewKeyRecord, ProjectKeyStore } from "../core/ports/project-keys";
import type { ProjectKey } from "../core/projects/project";
import type { DB } from "./schema";

/** Inserts an active key of the project on `db`, which may be the caller's transaction (creating a project). */
export function insertKeyRow(db: Kysely<DB>, projectId: number, key: NewKeyRecord): Promise<ProjectKey> {
  return db
    .insertInto("project_keys")
    .values({
      project_id: projectId,
      label: key.label,
      public_key: key.publicKey,
      secret_key: key.secretKey,
      is_active: 1,
      rate_limit_count: key.rateLimit?.count ?? null,
      rate_limit_window_seconds: key.rateLimit?.windowSeconds ?? null,
      created_at: key.now,
    })
    .returningAll()
    .executeTakeFirstOrThrow();
}

/** ProjectKeyStore (src/core/ports/project-keys.ts) on the main database, the same SQL on both dialects. */
export class KyselyProjectKeyStore implements ProjectKeyStore {
  constructor(private readonly db: Kysely<DB>) {}

  list(projectId: number): Promise<ProjectKey[]> {
    return this.db.selectFrom("project_keys").selectAll().where("project_id", "=", projectId).orderBy("id").execute();
  }

  async byPublicKey(publicKey: string): Promise<ProjectKey | null> {
    return (await this.db.selectFrom("project_keys").selectAll().where("public_key", "=", publicKey).executeTakeFirst()) ?? null;
  }

  create(projectId: number, key: NewKeyRecord): Promise<ProjectKey> {
    return insertKeyRow(this.db, projectId, key);
  }

  async setActive(projectId: number, keyId: number, active: boolean): Promise<boolean> {
    return this.update(projectId, keyId, { is_active: active ? 1 : 0 });
  }

  rotate(projectId: number, keyId: number, pair: { publicKey: string; secretKey: string }, now: number): Promise<ProjectKey | null> {
    return this.db.transaction().execute(async (trx) => {
      const old = await trx
        .selectFrom("project_keys")
        .selectAll()
        .where("id", "=", keyId)
        .where("project_id", "=", projectId)
        .executeTakeFirst();
      if (!old) return null;
      await trx.updateTable("project_keys").set({ is_active: 0 }).where("id", "=", old.id).execute();
      const rateLimit =
        old.rate_limit_count !== null && old.rate_limit_window_seconds !== null
          ? { count: old.rate_limit_count, windowSeconds: old.rate_limit_window_seconds }
          : null;
      return insertKeyRow(trx, projectId, { label: old.label, ...pair, rateLimit, now });
    });
  }

  setRateLimit(projectId: number, keyId: number, limit: KeyRateLimitValue): Promise<boolean> {
    return this.update(projectId, keyId, {
      rate_limit_count: limit?.count ?? null,
      rate_limit_window_seconds: limit?.windowSeconds ?? null,
    });
  }

  private async update(
    projectId: number,
    keyId: number,
    values: { is_active?: number; rate_limit_count?: number | null; rate_limit_window_seconds?: number | null },
  ): Promise<boolean> {
    const result = await this.db
      .updateTable("project_keys")
      .set(values)
      .where("id", "=", keyId)
      .where("project_id", "=", projectId)
      .executeTakeFirst();
    return Number(result.numUpdatedRows) > 0;
  }
}
