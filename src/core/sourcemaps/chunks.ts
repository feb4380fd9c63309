import { createHash } from "node:crypto";
import { gunzipSync } from "node:zlib";
import type { Ctx } from "../context";
import { invalidInput, TelltaleError } from "../errors";
import { ARTIFACT_LIMITS } from "./limits";

export const SHA1_HEX = /^[0-9a-f]{40}$/;

/** A chunk as a multipart part brought it: its name (the SHA-1 sentry-cli computed) and its bytes. */
export interface ReceivedChunk {
  checksum: string;
  data: Buffer;
  gzip: boolean;
}

/**
 * Stores the chunks of one chunk-upload request, all or none: each decompressed within the chunk
 * size and checked against its SHA-1 before anything is written
 * (sentry-cli's `upload_chunks`: one `file_gzip` part per chunk, named by its SHA-1,
 * https://github.com/getsentry/sentry-cli/blob/fb79c59a35d79135d9eb84f4845572ce4548c455/src/api/mod.rs).
 */
export async function storeChunks({ ctx, input }: { ctx: Ctx; input: { organizationId: number; chunks: readonly ReceivedChunk[] } }) {
  if (input.chunks.length > ARTIFACT_LIMITS.chunksPerRequest) throw invalidInput("Too many chunks");
  const verified: { checksum: string; data: Buffer }[] = [];
  for (const chunk of input.chunks) {
    if (!SHA1_HEX.test(chunk.checksum)) throw invalidInput(`chunk name '${chunk.checksum.slice(0, 60)}' is not a SHA-1`);
    let data = chunk.data;
    if (chunk.gzip) {
      try {
        data = gunzipSync(chunk.data, { maxOutputLength: ARTIFACT_LIMITS.chunkSize });
      } catch {
        throw invalidInput(`chunk ${chunk.checksum} is not gzip within ${ARTIFACT_LIMITS.chunkSize} bytes`);
      }
    }
    if (data.length > ARTIFACT_LIMITS.chunkSize) throw invalidInput("Chunk size too large");
    const actual = createHash("sha1").update(data).digest("hex");
    if (actual !== chunk.checksum) throw invalidInput(`chunk ${chunk.checksum} has SHA-1 ${actual}`);
    verified.push({ checksum: chunk.checksum, data });
  }
  const now = ctx.now();
  const pending = await ctx.artifacts.expireChunks(input.organizationId, now - ARTIFACT_LIMITS.chunkTtlMs);
  const adding = verified.reduce((n, c) => n + c.data.length, 0);
  if (pending + adding > ARTIFACT_LIMITS.maxPendingChunkBytes) {
    throw new TelltaleError("too_large", `the organization holds ${pending} bytes of chunks not yet assembled; assemble or wait`);
  }
  await ctx.artifacts.putChunks(input.organizationId, verified, now);
}

/**
 * What `GET /organizations/{org}/chunk-upload/` answers (sentry-cli
 * https://github.com/getsentry/sentry-cli/blob/fb79c59a35d79135d9eb84f4845572ce4548c455/src/api/data_types/chunking/upload/options.rs).
 * `baseUrl` is where the client reached the API (src/server/api/request-origin.ts).
 */
export function chunkUploadOptions(orgSlug: string, baseUrl: string) {
  return {
    // Absolute, as Sentry answers: the Rust sentry-cli joins a relative URL to its own, but the
    // JavaScript CLI the bundler plugins use (npm `sentry`) fetches this URL as it is and refuses a
    // host other than the one it was given. Built from the request, so uploads through a proxy
    // still come back the way they went, whatever TELLTALE_URL says.
    url: `${baseUrl}/api/0/organizations/${encodeURIComponent(orgSlug)}/chunk-upload/`,
    chunkSize: ARTIFACT_LIMITS.chunkSize,
    chunksPerRequest: ARTIFACT_LIMITS.chunksPerRequest,
    maxRequestSize: ARTIFACT_LIMITS.maxRequestSize,
    maxFileSize: ARTIFACT_LIMITS.maxBundleSize,
    concurrency: ARTIFACT_LIMITS.concurrency,
    hashAlgorithm: "sha1",
    compression: ["gzip"],
    accept: ["artifact_bundles", "artifact_bundles_v2"],
  };
}
