import { gunzipSync, gzipSync } from "node:zlib";
import type { Kysely, Selectable } from "kysely";
import type {
  ArtifactBundle,
  ArtifactFile,
  ArtifactStore,
  Assembly,
  AssembleState,
  DebugIdMatch,
  NewArtifactBundle,
} from "../core/ports/artifacts";
import type { DB } from "./schema";
import type { ArtifactBundlesTable, ArtifactFilesTable } from "./schema-releases";

const fileRecord = (f: Selectable<ArtifactFilesTable>): ArtifactFile => ({
  id: f.id,
  bundleId: f.bundle_id,
  url: f.url,
  type: f.type,
  debugId: f.debug_id,
  sourcemap: f.sourcemap,
  size: f.size,
});

const bundleRecord = (b: Selectable<ArtifactBundlesTable>, projectIds: number[]): ArtifactBundle => ({
  id: b.id,
  organizationId: b.organization_id,
  bundleId: b.bundle_id,
  checksum: b.checksum,
  release: b.release,
  dist: b.dist,
  fileCount: b.file_count,
  size: b.size,
  createdAt: b.created_at,
  projectIds,
});

const STATES: ReadonlySet<string> = new Set<AssembleState>(["not_found", "created", "assembling", "ok", "error"]);

/** Artifact bundles over the main database (src/core/ports/artifacts.ts); file bytes gzip-compressed in their own table. */
export class KyselyArtifactStore implements ArtifactStore {
  constructor(private readonly db: Kysely<DB>) {}

  async putChunks(organizationId: number, chunks: readonly { checksum: string; data: Buffer }[], now: number): Promise<void> {
    for (const c of chunks) {
      await this.db
        .insertInto("upload_chunks")
        .values({ organization_id: organizationId, checksum: c.checksum, size: c.data.length, data: c.data, created_at: now })
        .onConflict((oc) => oc.columns(["organization_id", "checksum"]).doNothing())
        .execute();
    }
  }

  async missingChunks(organizationId: number, checksums: readonly string[]): Promise<string[]> {
    if (checksums.length === 0) return [];
    const have = new Set<string>();
    // In slices: a bundle may name thousands of chunks, more than one statement's parameters allow.
    for (let i = 0; i < checksums.length; i += 500) {
      const rows = await this.db
        .selectFrom("upload_chunks")
        .select("checksum")
        .where("organization_id", "=", organizationId)
        .where("checksum", "in", checksums.slice(i, i + 500))
        .execute();
      for (const r of rows) have.add(r.checksum);
    }
    return checksums.filter((c) => !have.has(c));
  }

  async readChunks(organizationId: number, checksums: readonly string[]): Promise<Buffer[] | null> {
    const out: Buffer[] = [];
    for (const checksum of checksums) {
      const row = await this.db
        .selectFrom("upload_chunks")
        .select("data")
        .where("organization_id", "=", organizationId)
        .where("checksum", "=", checksum)
        .executeTakeFirst();
      if (!row) return null;
      out.push(Buffer.from(row.data));
    }
    return out;
  }

  async deleteChunks(organizationId: number, checksums: readonly string[]): Promise<void> {
    for (let i = 0; i < checksums.length; i += 500) {
      await this.db
        .deleteFrom("upload_chunks")
        .where("organization_id", "=", organizationId)
        .where("checksum", "in", checksums.slice(i, i + 500))
        .execute();
    }
  }

  async expireChunks(organizationId: number, before: number): Promise<number> {
    await this.db.deleteFrom("upload_chunks").where("organization_id", "=", organizationId).where("created_at", "<", before).execute();
    const row = await this.db
      .selectFrom("upload_chunks")
      .select((eb) => eb.fn.sum<number | string | null>("size").as("bytes"))
      .where("organization_id", "=", organizationId)
      .executeTakeFirst();
    return Number(row?.bytes ?? 0);
  }

  async linkProjects(organizationId: number, checksum: string, projectIds: readonly number[]): Promise<void> {
    const bundle = await this.db
      .selectFrom("artifact_bundles")
      .select("id")
      .where("organization_id", "=", organizationId)
      .where("checksum", "=", checksum)
      .executeTakeFirst();
    if (!bundle) return;
    for (const projectId of projectIds) {
      await this.db
        .insertInto("artifact_bundle_projects")
        .values({ bundle_id: bundle.id, project_id: projectId })
        .onConflict((oc) => oc.columns(["bundle_id", "project_id"]).doNothing())
        .execute();
    }
  }

  async assembly(organizationId: number, checksum: string): Promise<Assembly | null> {
    const row = await this.db
      .selectFrom("bundle_assemblies")
      .select(["state", "detail"])
      .where("organization_id", "=", organizationId)
      .where("checksum", "=", checksum)
      .executeTakeFirst();
    if (!row || !STATES.has(row.state)) return null;
    return { state: row.state as AssembleState, detail: row.detail };
  }

  async setAssembly(organizationId: number, checksum: string, assembly: Assembly, now: number): Promise<void> {
    await this.db
      .insertInto("bundle_assemblies")
      .values({ organization_id: organizationId, checksum, state: assembly.state, detail: assembly.detail, created_at: now })
      .onConflict((oc) => oc.columns(["organization_id", "checksum"]).doUpdateSet({ state: assembly.state, detail: assembly.detail }))
      .execute();
  }

  async saveBundle(bundle: NewArtifactBundle, now: number): Promise<ArtifactBundle> {
    return this.db.transaction().execute(async (tx) => {
      const row = await tx
        .insertInto("artifact_bundles")
        .values({
          organization_id: bundle.organizationId,
          bundle_id: bundle.bundleId,
          checksum: bundle.checksum,
          release: bundle.release,
          dist: bundle.dist,
          file_count: bundle.files.length,
          size: bundle.size,
          created_at: now,
        })
        .returningAll()
        .executeTakeFirstOrThrow();
      for (const projectId of bundle.projectIds) {
        await tx.insertInto("artifact_bundle_projects").values({ bundle_id: row.id, project_id: projectId }).execute();
      }
      for (const f of bundle.files) {
        const file = await tx
          .insertInto("artifact_files")
          .values({ bundle_id: row.id, url: f.url, type: f.type, debug_id: f.debugId, sourcemap: f.sourcemap, size: f.data.length })
          .returning("id")
          .executeTakeFirstOrThrow();
        await tx
          .insertInto("artifact_file_contents")
          .values({ file_id: file.id, data: gzipSync(f.data) })
          .execute();
      }
      return bundleRecord(row, [...bundle.projectIds]);
    });
  }

  async bundles(organizationId: number): Promise<ArtifactBundle[]> {
    const rows = await this.db
      .selectFrom("artifact_bundles")
      .selectAll()
      .where("organization_id", "=", organizationId)
      .orderBy("id", "desc")
      .execute();
    if (rows.length === 0) return [];
    const links = await this.db
      .selectFrom("artifact_bundle_projects")
      .selectAll()
      .where(
        "bundle_id",
        "in",
        rows.map((r) => r.id),
      )
      .execute();
    return rows.map((r) =>
      bundleRecord(
        r,
        links.filter((l) => l.bundle_id === r.id).map((l) => l.project_id),
      ),
    );
  }

  async deleteBundle(organizationId: number, id: number): Promise<void> {
    // The links, file index and contents go with it (ON DELETE CASCADE, migration 0019).
    await this.db.deleteFrom("artifact_bundles").where("organization_id", "=", organizationId).where("id", "=", id).execute();
  }

  async files(bundleId: number): Promise<ArtifactFile[]> {
    const rows = await this.db.selectFrom("artifact_files").selectAll().where("bundle_id", "=", bundleId).orderBy("url").execute();
    return rows.map(fileRecord);
  }

  async bundleGenerations(projectIds: readonly number[]): Promise<Map<number, string>> {
    const out = new Map<number, string>();
    if (projectIds.length === 0) return out;
    // Bundle ids only grow, so every link or drop moves the count, the sum or the newest id of the project's set.
    const rows = await this.db
      .selectFrom("artifact_bundle_projects")
      .select((eb) => [
        "project_id",
        eb.fn.countAll<number | string>().as("n"),
        eb.fn.sum<number | string>("bundle_id").as("total"),
        eb.fn.max("bundle_id").as("newest"),
      ])
      .where("project_id", "in", [...new Set(projectIds)])
      .groupBy("project_id")
      .execute();
    for (const r of rows) out.set(Number(r.project_id), `${Number(r.n)}.${Number(r.total)}.${Number(r.newest)}`);
    return out;
  }

  async byDebugId(projectId: number, debugId: string): Promise<DebugIdMatch> {
    const rows = await this.db
      .selectFrom("artifact_files as f")
      .innerJoin("artifact_bundle_projects as p", "p.bundle_id", "f.bundle_id")
      .selectAll("f")
      .where("p.project_id", "=", projectId)
      .where("f.debug_id", "=", debugId.toLowerCase())
      .orderBy("f.bundle_id", "desc")
      .execute();
    const newest = rows[0]?.bundle_id;
    const inBundle = rows.filter((r) => r.bundle_id === newest);
    const minified = inBundle.find((r) => r.type === "minified_source") ?? inBundle.find((r) => r.type !== "source_map");
    const sourceMap = inBundle.find((r) => r.type === "source_map");
    return { minified: minified ? fileRecord(minified) : null, sourceMap: sourceMap ? fileRecord(sourceMap) : null };
  }

  async byUrl(projectId: number, release: string, dist: string | null, urls: readonly string[]): Promise<ArtifactFile | null> {
    if (urls.length === 0) return null;
    let q = this.db
      .selectFrom("artifact_files as f")
      .innerJoin("artifact_bundles as b", "b.id", "f.bundle_id")
      .innerJoin("artifact_bundle_projects as p", "p.bundle_id", "f.bundle_id")
      .selectAll("f")
      .where("p.project_id", "=", projectId)
      .where("b.release", "=", release)
      .where("f.url", "in", urls);
    q = dist === null ? q.where("b.dist", "is", null) : q.where("b.dist", "=", dist);
    const rows = await q.orderBy("f.bundle_id", "desc").execute();
    for (const url of urls) {
      const hit = rows.find((r) => r.url === url);
      if (hit) return fileRecord(hit);
    }
    return null;
  }

  async content(fileId: number): Promise<Buffer | null> {
    const row = await this.db.selectFrom("artifact_file_contents").select("data").where("file_id", "=", fileId).executeTakeFirst();
    return row ? gunzipSync(row.data) : null;
  }
}
