/**
 * Named limits of source-map uploads. The chunk options tell sentry-cli the first four, so it
 * never sends more; the server enforces all of them whatever a client does.
 */
export const ARTIFACT_LIMITS = {
  /** One chunk, uncompressed (a power of two, as sentry-cli ≤ 2.39.1 requires). */
  chunkSize: 1024 * 1024,
  chunksPerRequest: 16,
  /** One chunk-upload request, multipart with its gzip-compressed chunks. */
  maxRequestSize: 32 * 1024 * 1024,
  /** One assembled bundle (the sum of its chunks). */
  maxBundleSize: 64 * 1024 * 1024,
  /** Files in one bundle, manifest included. */
  maxBundleFiles: 2000,
  /** All files of one bundle, uncompressed. */
  maxUncompressedSize: 256 * 1024 * 1024,
  /** `manifest.json`, uncompressed. */
  maxManifestSize: 4 * 1024 * 1024,
  /** Chunks named by one assemble request. */
  maxChunksPerBundle: 64,
  concurrency: 4,
  /** Chunks an organization may hold that no bundle has used yet (an upload in progress). */
  maxPendingChunkBytes: 512 * 1024 * 1024,
  /** How long an unused chunk is kept: an upload that never assembles is dropped after this. */
  chunkTtlMs: 24 * 60 * 60 * 1000,
} as const;
