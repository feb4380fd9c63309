import type { IncomingMessage } from "node:http";
import busboy from "busboy";
import { invalidInput, TelltaleError } from "../../core/errors";
import type { ReceivedChunk } from "../../core/sourcemaps/chunks";
import { ARTIFACT_LIMITS } from "../../core/sourcemaps/limits";

/**
 * Reads sentry-cli's chunk upload (`upload_chunks` in
 * https://github.com/getsentry/sentry-cli/blob/fb79c59a35d79135d9eb84f4845572ce4548c455/src/api/mod.rs): multipart, one part per chunk,
 * named `file_gzip` (gzip) or `file`, its filename the chunk's SHA-1. Streamed with busboy and
 * bounded: the request, the parts and each part's compressed size. Whole-body `Content-Encoding`
 * is not offered (the options say `gzip` per chunk), so it is refused.
 */
export async function readChunkParts(req: IncomingMessage): Promise<ReceivedChunk[]> {
  if (req.headers["content-encoding"] && req.headers["content-encoding"] !== "identity") throw invalidInput("Unsupported Content-Encoding");
  const length = Number(req.headers["content-length"] ?? "0");
  if (length > ARTIFACT_LIMITS.maxRequestSize) throw new TelltaleError("too_large", "Request too large");
  const type = req.headers["content-type"] ?? "";
  // An empty request is fine to Sentry (sentry-cli sends none, but a probe may).
  if (!type.startsWith("multipart/form-data")) {
    if (length === 0) return [];
    throw invalidInput("send the chunks as multipart/form-data");
  }
  return new Promise((resolve, reject) => {
    const chunks: ReceivedChunk[] = [];
    let failed = false;
    let received = 0;
    const fail = (e: Error) => {
      if (failed) return;
      failed = true;
      req.unpipe();
      req.resume();
      reject(e);
    };
    let parser: busboy.Busboy;
    try {
      parser = busboy({
        headers: req.headers,
        limits: {
          files: ARTIFACT_LIMITS.chunksPerRequest,
          fileSize: ARTIFACT_LIMITS.chunkSize,
          fields: 0,
          parts: ARTIFACT_LIMITS.chunksPerRequest,
        },
      });
    } catch {
      throw invalidInput("the multipart body has no boundary");
    }
    parser.on("file", (name, stream, info) => {
      if (name !== "file" && name !== "file_gzip") {
        stream.resume();
        return fail(invalidInput(`unexpected part '${name.slice(0, 60)}'`));
      }
      const parts: Buffer[] = [];
      stream.on("data", (d: Buffer) => parts.push(d));
      stream.on("limit", () => fail(invalidInput("Chunk size too large")));
      stream.on("end", () => chunks.push({ checksum: info.filename ?? "", data: Buffer.concat(parts), gzip: name === "file_gzip" }));
    });
    parser.on("filesLimit", () => fail(invalidInput("Too many chunks")));
    parser.on("partsLimit", () => fail(invalidInput("Too many chunks")));
    parser.on("error", (e: unknown) =>
      fail(invalidInput(`the multipart body is malformed: ${e instanceof Error ? e.message : String(e)}`)),
    );
    parser.on("close", () => {
      if (!failed) resolve(chunks);
    });
    req.on("data", (d: Buffer) => {
      received += d.length;
      if (received > ARTIFACT_LIMITS.maxRequestSize) fail(new TelltaleError("too_large", "Request too large"));
    });
    req.on("error", (e) => fail(e));
    req.pipe(parser);
  });
}
