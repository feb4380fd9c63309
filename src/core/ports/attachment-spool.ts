/**
 * Where a request's attachment bytes wait until the whole envelope is read and judged: outside
 * the database, so that an envelope refused at its end (a decompression bomb past its limit) has
 * written nothing to the database file or its WAL. Only an accepted envelope's attachments are
 * copied into `attachment_chunks` (src/core/ingest/attachments.ts).
 */
export interface AttachmentSpool {
  /** A new, empty spool file of this request. */
  create(): Promise<SpoolFile>;
}

export interface SpoolFile {
  append(chunk: Buffer): Promise<void>;
  /** The bytes appended, in pieces of at most `bytes`. */
  read(bytes: number): AsyncIterable<Buffer>;
  /** Deletes the file; safe to call more than once. */
  remove(): Promise<void>;
}
