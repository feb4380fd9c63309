import type { Kysely } from "kysely";
import type { AttachmentUploads, NewAttachment } from "../core/ports/attachment-uploads";
import type { DB } from "./schema";

/** `attachments` and `attachment_chunks` as ingest writes them (`complete = 0` until the envelope is kept). */
export class KyselyAttachmentUploads implements AttachmentUploads {
  constructor(private readonly db: Kysely<DB>) {}

  async insert(a: NewAttachment): Promise<number> {
    const row = await this.db
      .insertInto("attachments")
      .values({
        project_id: a.projectId,
        event_id: null,
        name: a.name,
        content_type: a.contentType,
        attachment_type: a.attachmentType,
        size: a.size,
        complete: 0,
        created_at: a.createdAt,
      })
      .returning("id")
      .executeTakeFirstOrThrow();
    return row.id;
  }

  async insertChunk(attachmentId: number, seq: number, data: Buffer): Promise<void> {
    await this.db.insertInto("attachment_chunks").values({ attachment_id: attachmentId, seq, data }).execute();
  }

  async complete(ids: readonly number[], eventId: string | null): Promise<void> {
    if (ids.length === 0) return;
    await this.db.updateTable("attachments").set({ complete: 1, event_id: eventId }).where("id", "in", ids).execute();
  }

  async remove(ids: readonly number[]): Promise<void> {
    if (ids.length === 0) return;
    await this.db.deleteFrom("attachments").where("id", "in", ids).execute();
  }
}
