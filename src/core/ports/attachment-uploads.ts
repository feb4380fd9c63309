/**
 * Attachments as the request path stores them (src/core/ingest/attachments.ts): rows written
 * invisible while the envelope is still being taken, made visible once it is kept, deleted if
 * it is not. Implemented over the main database by src/db/attachment-uploads.ts.
 */

export interface NewAttachment {
  projectId: number;
  name: string;
  contentType: string;
  attachmentType: string;
  size: number;
  createdAt: number;
}

export interface AttachmentUploads {
  /** Stores an attachment's row, not complete and of no event yet; returns its id. */
  insert(attachment: NewAttachment): Promise<number>;
  /** Stores the attachment's bytes numbered `seq` (from 0, in order). */
  insertChunk(attachmentId: number, seq: number, data: Buffer): Promise<void>;
  /** Makes the attachments complete and links them to the event, all at once. */
  complete(ids: readonly number[], eventId: string | null): Promise<void>;
  /** Deletes the attachments, bytes and all. */
  remove(ids: readonly number[]): Promise<void>;
}
