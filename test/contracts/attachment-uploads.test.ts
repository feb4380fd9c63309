import { KyselyAttachmentUploads } from "../../src/db/attachment-uploads";
import { DIALECTS } from "../support/stores";
import { attachmentUploadsContract } from "./attachment-uploads";
import { openSeededStore } from "./seeded-store";

for (const dialect of DIALECTS)
  attachmentUploadsContract(`Kysely on ${dialect}`, async () => {
    const { store, projectId } = await openSeededStore(dialect);
    return {
      uploads: new KyselyAttachmentUploads(store.db),
      projectId,
      async stored(id) {
        const row = await store.db.selectFrom("attachments").selectAll().where("id", "=", id).executeTakeFirst();
        const chunks = await store.db
          .selectFrom("attachment_chunks")
          .select("data")
          .where("attachment_id", "=", id)
          .orderBy("seq")
          .execute();
        const bytes = Buffer.concat(chunks.map((c) => c.data)).toString();
        if (!row)
          return chunks.length === 0
            ? null
            : { name: "", contentType: "", attachmentType: "", size: 0, complete: false, eventId: null, bytes };
        return {
          name: row.name,
          contentType: row.content_type,
          attachmentType: row.attachment_type,
          size: row.size,
          complete: row.complete === 1,
          eventId: row.event_id,
          bytes,
        };
      },
      cleanup: () => store.cleanup(),
    };
  });
