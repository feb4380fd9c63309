import type { Generated } from "kysely";

/** Tables of releases and source maps (migration 0019), part of `DB` in ./schema.ts. */
export interface ReleasesSchema {
  upload_chunks: UploadChunksTable;
  bundle_assemblies: BundleAssembliesTable;
  artifact_bundles: ArtifactBundlesTable;
  artifact_bundle_projects: ArtifactBundleProjectsTable;
  artifact_files: ArtifactFilesTable;
  artifact_file_contents: ArtifactFileContentsTable;
  releases: ReleasesTable;
  release_projects: ReleaseProjectsTable;
  deploys: DeploysTable;
  repositories: RepositoriesTable;
  release_commits: ReleaseCommitsTable;
  release_head_commits: ReleaseHeadCommitsTable;
}

/** A chunk sent to `chunk-upload/`, by its SHA-1, until the bundle it belongs to is assembled. */
export interface UploadChunksTable {
  organization_id: number;
  checksum: string;
  size: number;
  data: Buffer;
  created_at: number;
}

/** The outcome of assembling a bundle (by its whole SHA-1), which sentry-cli polls. */
export interface BundleAssembliesTable {
  organization_id: number;
  checksum: string;
  state: string;
  detail: string | null;
  created_at: number;
}

export interface ArtifactBundlesTable {
  id: Generated<number>;
  organization_id: number;
  /** The manifest's `debug_id`: the bundle's own id. */
  bundle_id: string;
  checksum: string;
  release: string | null;
  dist: string | null;
  file_count: number;
  size: number;
  created_at: number;
}

export interface ArtifactBundleProjectsTable {
  bundle_id: number;
  project_id: number;
}

/** The index of a bundle's files: what symbolication looks up. */
export interface ArtifactFilesTable {
  id: Generated<number>;
  bundle_id: number;
  url: string;
  type: string;
  debug_id: string | null;
  sourcemap: string | null;
  size: number;
}

/** A file's bytes, gzip-compressed, read only when asked for. */
export interface ArtifactFileContentsTable {
  file_id: number;
  data: Buffer;
}

export interface ReleasesTable {
  id: Generated<number>;
  organization_id: number;
  version: string;
  ref: string | null;
  url: string | null;
  status: Generated<string>;
  date_created: number;
  date_started: number | null;
  date_released: number | null;
}

export interface ReleaseProjectsTable {
  release_id: number;
  project_id: number;
}

export interface DeploysTable {
  id: Generated<number>;
  release_id: number;
  environment: string;
  name: string | null;
  url: string | null;
  date_started: number | null;
  date_finished: number;
}

export interface RepositoriesTable {
  id: Generated<number>;
  organization_id: number;
  name: string;
  url: string | null;
  provider: string | null;
  date_created: number;
}

export interface ReleaseCommitsTable {
  release_id: number;
  repository_id: number;
  commit_key: string;
  position: number;
  message: string | null;
  author_name: string | null;
  author_email: string | null;
  timestamp: number | null;
}

export interface ReleaseHeadCommitsTable {
  release_id: number;
  repository_id: number;
  commit_key: string;
  previous_commit_key: string | null;
}
