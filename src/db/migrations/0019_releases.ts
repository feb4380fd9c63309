import { withId, type Migration } from "./helpers";

/**
 * Releases and source maps: releases per organization with their projects,
 * deploys, repositories registered by API and the commits set on a release; uploaded chunks
 * (kept until their bundle is assembled) and artifact bundles with an index of their files.
 * File bytes live in `artifact_file_contents` (gzip), away from the index the lookups scan.
 */
export const m0019: Migration = {
  async up(db, dialect) {
    const blob = dialect === "sqlite" ? "blob" : "bytea";
    const org = "organization_id";
    await db.schema
      .createTable("upload_chunks")
      .addColumn(org, "integer", (c) => c.notNull().references("organizations.id").onDelete("cascade"))
      .addColumn("checksum", "text", (c) => c.notNull())
      .addColumn("size", "integer", (c) => c.notNull())
      .addColumn("data", blob, (c) => c.notNull())
      .addColumn("created_at", "bigint", (c) => c.notNull())
      .addPrimaryKeyConstraint("upload_chunks_pk", [org, "checksum"])
      .execute();
    await db.schema
      .createTable("bundle_assemblies")
      .addColumn(org, "integer", (c) => c.notNull().references("organizations.id").onDelete("cascade"))
      .addColumn("checksum", "text", (c) => c.notNull())
      .addColumn("state", "text", (c) => c.notNull())
      .addColumn("detail", "text")
      .addColumn("created_at", "bigint", (c) => c.notNull())
      .addPrimaryKeyConstraint("bundle_assemblies_pk", [org, "checksum"])
      .execute();
    await withId(db.schema.createTable("artifact_bundles"), dialect)
      .addColumn(org, "integer", (c) => c.notNull().references("organizations.id").onDelete("cascade"))
      .addColumn("bundle_id", "text", (c) => c.notNull())
      .addColumn("checksum", "text", (c) => c.notNull())
      .addColumn("release", "text")
      .addColumn("dist", "text")
      .addColumn("file_count", "integer", (c) => c.notNull())
      .addColumn("size", "bigint", (c) => c.notNull())
      .addColumn("created_at", "bigint", (c) => c.notNull())
      .addUniqueConstraint("artifact_bundles_checksum", [org, "checksum"])
      .execute();
    await db.schema
      .createTable("artifact_bundle_projects")
      .addColumn("bundle_id", "integer", (c) => c.notNull().references("artifact_bundles.id").onDelete("cascade"))
      .addColumn("project_id", "integer", (c) => c.notNull().references("projects.id").onDelete("cascade"))
      .addPrimaryKeyConstraint("artifact_bundle_projects_pk", ["bundle_id", "project_id"])
      .execute();
    await db.schema.createIndex("artifact_bundle_projects_project").on("artifact_bundle_projects").column("project_id").execute();
    await withId(db.schema.createTable("artifact_files"), dialect)
      .addColumn("bundle_id", "integer", (c) => c.notNull().references("artifact_bundles.id").onDelete("cascade"))
      .addColumn("url", "text", (c) => c.notNull())
      .addColumn("type", "text", (c) => c.notNull())
      .addColumn("debug_id", "text")
      .addColumn("sourcemap", "text")
      .addColumn("size", "integer", (c) => c.notNull())
      .execute();
    await db.schema.createIndex("artifact_files_debug_id").on("artifact_files").column("debug_id").execute();
    await db.schema.createIndex("artifact_files_bundle_url").on("artifact_files").columns(["bundle_id", "url"]).execute();
    await db.schema
      .createTable("artifact_file_contents")
      .addColumn("file_id", "integer", (c) => c.primaryKey().references("artifact_files.id").onDelete("cascade"))
      .addColumn("data", blob, (c) => c.notNull())
      .execute();

    await withId(db.schema.createTable("releases"), dialect)
      .addColumn(org, "integer", (c) => c.notNull().references("organizations.id").onDelete("cascade"))
      .addColumn("version", "text", (c) => c.notNull())
      .addColumn("ref", "text")
      .addColumn("url", "text")
      .addColumn("status", "text", (c) => c.notNull().defaultTo("open"))
      .addColumn("date_created", "bigint", (c) => c.notNull())
      .addColumn("date_started", "bigint")
      .addColumn("date_released", "bigint")
      .addUniqueConstraint("releases_version", [org, "version"])
      .execute();
    await db.schema
      .createTable("release_projects")
      .addColumn("release_id", "integer", (c) => c.notNull().references("releases.id").onDelete("cascade"))
      .addColumn("project_id", "integer", (c) => c.notNull().references("projects.id").onDelete("cascade"))
      .addPrimaryKeyConstraint("release_projects_pk", ["release_id", "project_id"])
      .execute();
    await db.schema.createIndex("release_projects_project").on("release_projects").column("project_id").execute();
    await withId(db.schema.createTable("deploys"), dialect)
      .addColumn("release_id", "integer", (c) => c.notNull().references("releases.id").onDelete("cascade"))
      .addColumn("environment", "text", (c) => c.notNull())
      .addColumn("name", "text")
      .addColumn("url", "text")
      .addColumn("date_started", "bigint")
      .addColumn("date_finished", "bigint", (c) => c.notNull())
      .execute();
    await db.schema.createIndex("deploys_release").on("deploys").column("release_id").execute();
    await withId(db.schema.createTable("repositories"), dialect)
      .addColumn(org, "integer", (c) => c.notNull().references("organizations.id").onDelete("cascade"))
      .addColumn("name", "text", (c) => c.notNull())
      .addColumn("url", "text")
      .addColumn("provider", "text")
      .addColumn("date_created", "bigint", (c) => c.notNull())
      .addUniqueConstraint("repositories_name", [org, "name"])
      .execute();
    await db.schema
      .createTable("release_commits")
      .addColumn("release_id", "integer", (c) => c.notNull().references("releases.id").onDelete("cascade"))
      .addColumn("repository_id", "integer", (c) => c.notNull().references("repositories.id").onDelete("cascade"))
      .addColumn("commit_key", "text", (c) => c.notNull())
      .addColumn("position", "integer", (c) => c.notNull())
      .addColumn("message", "text")
      .addColumn("author_name", "text")
      .addColumn("author_email", "text")
      .addColumn("timestamp", "bigint")
      .addPrimaryKeyConstraint("release_commits_pk", ["release_id", "repository_id", "commit_key"])
      .execute();
    await db.schema
      .createTable("release_head_commits")
      .addColumn("release_id", "integer", (c) => c.notNull().references("releases.id").onDelete("cascade"))
      .addColumn("repository_id", "integer", (c) => c.notNull().references("repositories.id").onDelete("cascade"))
      .addColumn("commit_key", "text", (c) => c.notNull())
      .addColumn("previous_commit_key", "text")
      .addPrimaryKeyConstraint("release_head_commits_pk", ["release_id", "repository_id"])
      .execute();
  },
};
