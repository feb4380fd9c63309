import type { Ctx } from "../context";
import { notFound } from "../errors";
import type { EventAttachment } from "../ports/telemetry-read";

/** Event ids arrive with or without dashes, in either case; they are stored as 32 lowercase hex. */
const storedEventId = (eventId: string) => eventId.replaceAll("-", "").toLowerCase();

/** The complete attachments of a project's event, for the issue page. */
export function eventAttachments(ctx: Ctx, projectId: number, eventId: string): Promise<EventAttachment[]> {
  return ctx.telemetry.eventAttachments(projectId, storedEventId(eventId));
}

/** One attachment of a project's event with its bytes as a stream, for a download. */
export async function attachmentDownload(
  ctx: Ctx,
  projectId: number,
  eventId: string,
  attachmentId: number,
): Promise<EventAttachment & { chunks: AsyncIterable<Buffer> }> {
  const attachment = await ctx.telemetry.eventAttachment(projectId, storedEventId(eventId), attachmentId);
  if (!attachment) throw notFound("attachment not found");
  return { ...attachment, chunks: ctx.telemetry.attachmentChunks(attachment.id) };
}
