import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { AttachmentUploads, NewAttachment } from "../../src/core/ports/attachment-uploads";

/** An attachment as stored, with its bytes joined in chunk order. */
export interface StoredAttachment {
  name: string;
  contentType: string;
  attachmentType: string;
  size: number;
  complete: boolean;
  eventId: string | null;
  bytes: string;
}

export interface AttachmentUploadsFixture {
  uploads: AttachmentUploads;
  projectId: number;
  /** The attachment as stored; null when neither it nor any of its bytes is. */
  stored(id: number): Promise<StoredAttachment | null>;
  cleanup(): Promise<void>;
}

export function attachmentUploadsContract(name: string, make: () => Promise<AttachmentUploadsFixture>): void {
  describe(`AttachmentUploads: ${name}`, () => {
    let f: AttachmentUploadsFixture;
    beforeAll(async () => {
      f = await make();
    });
    afterAll(() => f.cleanup());

    const upload = (name: string): NewAttachment => ({
      projectId: f.projectId,
      name,
      contentType: "text/plain",
      attachmentType: "event.attachment",
      size: 6,
      createdAt: 1000,
    });

    it("stores an attachment invisible with its chunks, then completes it for its event", async () => {
      const id = await f.uploads.insert(upload("a.txt"));
      await f.uploads.insertChunk(id, 0, Buffer.from("abc"));
      await f.uploads.insertChunk(id, 1, Buffer.from("def"));
      const other = await f.uploads.insert(upload("b.txt"));
      expect(await f.stored(id)).toEqual({
        name: "a.txt",
        contentType: "text/plain",
        attachmentType: "event.attachment",
        size: 6,
        complete: false,
        eventId: null,
        bytes: "abcdef",
      });
      await f.uploads.complete([id, other], "0123456789abcdef0123456789abcdef");
      expect(await f.stored(id)).toMatchObject({ complete: true, eventId: "0123456789abcdef0123456789abcdef" });
      expect(await f.stored(other)).toMatchObject({ complete: true, bytes: "" });
      await f.uploads.complete([], null);
    });

    it("removes attachments, bytes and all", async () => {
      const id = await f.uploads.insert(upload("gone.txt"));
      await f.uploads.insertChunk(id, 0, Buffer.from("abc"));
      const kept = await f.uploads.insert(upload("kept.txt"));
      await f.uploads.remove([id]);
      await f.uploads.remove([]);
      expect(await f.stored(id)).toBeNull();
      expect(await f.stored(kept)).toMatchObject({ name: "kept.txt" });
    });
  });
}
