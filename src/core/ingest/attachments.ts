import type { Ctx } from "../context";
import type { ItemHeader } from "../envelope/index";
import { scrubFileName } from "../normalize/scrub-items";
import { cleanString } from "../normalize/values";
import { projectOptions, type Scrubbing } from "../projects/options";
import type { AttachmentSpool, SpoolFile } from "../ports/attachment-spool";

/** Attachment bytes go to storage in rows of this size, so memory holds at most one. */
const CHUNK_BYTES = 1024 * 1024;

interface Spooled {
  header: ItemHeader;
  file: SpoolFile;
  bytes: number;
}

/**
 * The attachments of one request. Their bytes go to a spool file as they arrive (`spool`,
 * src/core/ports/attachment-spool.ts), not to the database: the envelope may still be refused
 * at its end (a limit passed, a bomb), and a refusal must not have written up to the attachment
 * limit into the database file and its WAL first. Once the envelope is read and kept, `store`
 * copies them into `attachments` / `attachment_chunks`, invisible (`complete = 0`) until
 * `complete` runs before the request's queue row is written; a request that
 * fails or is cut off deletes what it wrote and its spool files.
 */
export class AttachmentWriter {
  readonly ids: number[] = [];
  readonly accepted: { id: number; bytes: number }[] = [];
  private readonly spooled: Spooled[] = [];
  private current: Spooled | null = null;
  private skipping = false;
  /** The project's scrubbing options, read when the first attachment is stored. */
  private scrubbing: Promise<Scrubbing> | null = null;

  constructor(
    private readonly ctx: Ctx,
    private readonly projectId: number,
    private readonly receivedAt: number,
    private readonly spool: AttachmentSpool,
  ) {}

  /** Attachments read and kept so far. */
  get count(): number {
    return this.spooled.length;
  }

  skip(): void {
    this.skipping = true;
  }

  async start(header: ItemHeader): Promise<void> {
    this.skipping = false;
    this.current = { header, file: await this.spool.create(), bytes: 0 };
    this.spooled.push(this.current);
  }

  async write(chunk: Buffer): Promise<void> {
    const c = this.current;
    if (this.skipping || !c) return;
    await c.file.append(chunk);
    c.bytes += chunk.length;
  }

  end(): void {
    this.skipping = false;
    this.current = null;
  }

  /** Copies the spooled attachments into the database, still invisible. */
  async store(): Promise<void> {
    for (const s of this.spooled) {
      const id = await this.insertRow(s);
      this.ids.push(id);
      let seq = 0;
      for await (const data of s.file.read(CHUNK_BYTES)) await this.ctx.attachmentUploads.insertChunk(id, seq++, data);
      await s.file.remove();
      this.accepted.push({ id, bytes: s.bytes });
    }
  }

  private async insertRow({ header, bytes }: Spooled): Promise<number> {
    // The file name is shown on the event's page: scrubbed as the event's strings are, before it
    // is cut, so that a secret across the cut is still whole for the rules.
    this.scrubbing ??= projectOptions(this.ctx, this.projectId).then((o) => o.scrubbing);
    const scrubbing = await this.scrubbing;
    const name = cleanString(scrubFileName(header.filename ?? "attachment", scrubbing), 255) || "attachment";
    return this.ctx.attachmentUploads.insert({
      projectId: this.projectId,
      // Header text is the client's: made storable (a NUL would make PostgreSQL refuse the row).
      name,
      contentType: cleanString(header.contentType ?? "application/octet-stream", 255),
      attachmentType: cleanString(header.attachmentType ?? "event.attachment", 64),
      size: bytes,
      createdAt: this.receivedAt,
    });
  }

  /** Makes this request's attachments visible, linked to the envelope's event. */
  complete(eventId: string | null): Promise<void> {
    return this.ctx.attachmentUploads.complete(this.ids, eventId);
  }

  /** Removes the spool files; the rows too unless the request committed. */
  async discard(committed: boolean): Promise<void> {
    await Promise.all(this.spooled.map((s) => s.file.remove()));
    if (committed || this.ids.length === 0) return;
    await this.ctx.attachmentUploads.remove(this.ids);
  }
}
