/**
 * What source maps need from storage: chunks sent by sentry-cli until their bundle
 * is assembled, the assembled artifact bundles with an index of their files, and the two
 * lookups symbolication asks (by debug id; by project, release, dist and `~/…` URL). File bytes
 * are read one file at a time, on demand. Implemented over the main database by
 * src/db/artifact-store.ts.
 */

/**
 * Sentry's assemble states (sentry-cli
 * https://github.com/getsentry/sentry-cli/blob/fb79c59a35d79135d9eb84f4845572ce4548c455/src/api/data_types/chunking/file_state.rs).
 */
export type AssembleState = "not_found" | "created" | "assembling" | "ok" | "error";

export interface Assembly {
  state: AssembleState;
  detail: string | null;
}

/** One file of a bundle as the index holds it; `size` is the uncompressed size. */
export interface ArtifactFile {
  id: number;
  bundleId: number;
  url: string;
  /** `minified_source`, `source_map`, `source`, `indexed_ram_bundle`… as the manifest says. */
  type: string;
  debugId: string | null;
  /** The file's `Sourcemap` header: where its map is, relative to its URL. */
  sourcemap: string | null;
  size: number;
}

export interface ArtifactBundle {
  id: number;
  organizationId: number;
  /** The manifest's `debug_id`, the bundle's own id. */
  bundleId: string;
  checksum: string;
  release: string | null;
  dist: string | null;
  fileCount: number;
  size: number;
  createdAt: number;
  projectIds: number[];
}

export interface NewArtifactBundle {
  organizationId: number;
  bundleId: string;
  checksum: string;
  release: string | null;
  dist: string | null;
  size: number;
  projectIds: readonly number[];
  files: readonly { url: string; type: string; debugId: string | null; sourcemap: string | null; data: Buffer }[];
}

/** A minified file and its source map found by their shared debug id; either may be missing. */
export interface DebugIdMatch {
  minified: ArtifactFile | null;
  sourceMap: ArtifactFile | null;
}

export interface ArtifactStore {
  /** Stores verified chunks by checksum; a chunk already there is kept as it is. */
  putChunks(organizationId: number, chunks: readonly { checksum: string; data: Buffer }[], now: number): Promise<void>;
  /** The checksums of `checksums` not stored, in their order. */
  missingChunks(organizationId: number, checksums: readonly string[]): Promise<string[]>;
  /** The chunks' bytes in the order asked; null if one is missing. */
  readChunks(organizationId: number, checksums: readonly string[]): Promise<Buffer[] | null>;
  deleteChunks(organizationId: number, checksums: readonly string[]): Promise<void>;
  /** Drops the organization's chunks stored before `before` (never assembled) and returns the bytes still held. */
  expireChunks(organizationId: number, before: number): Promise<number>;

  assembly(organizationId: number, checksum: string): Promise<Assembly | null>;
  setAssembly(organizationId: number, checksum: string, assembly: Assembly, now: number): Promise<void>;

  /** Links an already stored bundle (by checksum) to more projects, as a re-upload for them asks. */
  linkProjects(organizationId: number, checksum: string, projectIds: readonly number[]): Promise<void>;
  /** Stores a bundle, its project links and its files in one transaction. */
  saveBundle(bundle: NewArtifactBundle, now: number): Promise<ArtifactBundle>;
  bundles(organizationId: number): Promise<ArtifactBundle[]>;
  /** Drops a bundle with its project links and files (a build's maps, once newer builds replace it). */
  deleteBundle(organizationId: number, id: number): Promise<void>;
  files(bundleId: number): Promise<ArtifactFile[]>;

  /** The newest bundle of the project holding files with this debug id. */
  byDebugId(projectId: number, debugId: string): Promise<DebugIdMatch>;
  /** The newest file of the project's bundles for this release and dist whose URL is one of `urls` (tried in order). */
  byUrl(projectId: number, release: string, dist: string | null, urls: readonly string[]): Promise<ArtifactFile | null>;
  /** One file's bytes, uncompressed; null if the file is gone. */
  content(fileId: number): Promise<Buffer | null>;
  /**
   * Each project's bundle generation: a value that changes whenever a bundle is linked to or
   * dropped from the project, so that symbolication can remember "no map here" until an upload,
   * in every process. A project without bundles is absent: symbolication asks nothing else of it.
   */
  bundleGenerations(projectIds: readonly number[]): Promise<Map<number, string>>;
}
