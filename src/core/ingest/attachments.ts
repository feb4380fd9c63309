import type { Kysely } from "kysely";
import type { DB } from "../../db/schema";
import type { Ctx } from "../context";
import type { ItemHeader } from "../envelope/index";
import { scrubFileName } from "../normalize/scrub-items";
import { cleanString } from "../normalize/values";
import { projectOptions, type Scrubbing } from "../projects/options";

/** Attachment bytes go to storage in rows of this size, so memory holds at most one. */
const CHUNK_BYTES = 1024 * 1024;

/**
 * Streams attachments of one request into `attachments` / `attachment_chunks`. Rows are
 * written as the bytes arrive but stay invisible (`complete = 0`) until the request's queue
 * row commits; a request that fails or is cut off deletes what it wrote.
 */
export class AttachmentWriter {
  readonly ids: number[] = [];
  readonly accepted: { id: number; bytes: number }[] = [];
  private current: { id: number; seq: number; bytes: number; pending: Buffer[]; pendingBytes: number } | null = null;
  private skipping = false;
  /** The project's scrubbing options, read at the request's first attachment. */
  private scrubbing: Promise<Scrubbing> | null = null;

  constructor(
    private readonly ctx: Ctx,
    private readonly projectId: number,
    private readonly receivedAt: number,
  ) {}

  skip(): void {
    this.skipping = true;
  }

  async start(header: ItemHeader): Promise<void> {
    this.skipping = false;
    this.scrubbing ??= projectOptions(this.ctx, this.projectId).then((o) => o.scrubbing);
    // The file name is shown on the event's page: scrubbed as the event's strings are, before it
    // is cut, so that a secret across the cut is still whole for the rules.
    const name = cleanString(scrubFileName(header.filename ?? "attachment", await this.scrubbing), 255) || "attachment";
    const row = await this.ctx.db
      .insertInto("attachments")
      .values({
        project_id: this.projectId,
        event_id: null,
        // Header text is the client's: made storable (a NUL would make PostgreSQL refuse the row).
        name,
        content_type: cleanString(header.contentType ?? "application/octet-stream", 255),
        attachment_type: cleanString(header.attachmentType ?? "event.attachment", 64),
        size: 0,
        complete: 0,
        created_at: this.receivedAt,
      })
      .returning("id")
      .executeTakeFirstOrThrow();
    this.ids.push(row.id);
    this.current = { id: row.id, seq: 0, bytes: 0, pending: [], pendingBytes: 0 };
  }

  async write(chunk: Buffer): Promise<void> {
    const c = this.current;
    if (this.skipping || !c) return;
    c.pending.push(chunk);
    c.pendingBytes += chunk.length;
    c.bytes += chunk.length;
    if (c.pendingBytes >= CHUNK_BYTES) await this.flush();
  }

  async end(): Promise<void> {
    const c = this.current;
    if (this.skipping || !c) {
      this.skipping = false;
      return;
    }
    await this.flush();
    await this.ctx.db.updateTable("attachments").set({ size: c.bytes }).where("id", "=", c.id).execute();
    this.accepted.push({ id: c.id, bytes: c.bytes });
    this.current = null;
  }

  private async flush(): Promise<void> {
    const c = this.current;
    if (!c || c.pendingBytes === 0) return;
    const data = Buffer.concat(c.pending);
    c.pending = [];
    c.pendingBytes = 0;
    await this.ctx.db.insertInto("attachment_chunks").values({ attachment_id: c.id, seq: c.seq++, data }).execute();
  }

  /** Makes this request's attachments visible, linked to the envelope's event. */
  async complete(trx: Kysely<DB>, eventId: string | null): Promise<void> {
    if (this.ids.length === 0) return;
    await trx.updateTable("attachments").set({ complete: 1, event_id: eventId }).where("id", "in", this.ids).execute();
  }

  async discard(): Promise<void> {
    if (this.ids.length === 0) return;
    await this.ctx.db.deleteFrom("attachments").where("id", "in", this.ids).execute();
  }
}
