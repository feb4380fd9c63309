import { eventAttachments } from "@/src/core/issues/attachments";
import { ctx } from "@/app/lib/app-runtime";

/** The event's attachments, each a download through the API; nothing when it has none. */
export async function Attachments({
  orgSlug,
  projectSlug,
  projectId,
  eventId,
}: {
  orgSlug: string;
  projectSlug: string;
  projectId: number;
  eventId: string;
}) {
  const rows = await eventAttachments(ctx(), projectId, eventId);
  if (rows.length === 0) return null;
  return (
    <section className="panel">
      <h2 style={{ marginTop: 0 }}>Attachments</h2>
      <ul data-testid="attachments">
        {rows.map((a) => (
          <li key={a.id}>
            <a href={`/api/0/projects/${orgSlug}/${projectSlug}/events/${eventId}/attachments/${a.id}/?download=1`}>{a.name}</a>{" "}
            <span className="muted-small">
              {a.content_type}, {a.size} bytes
            </span>
          </li>
        ))}
      </ul>
    </section>
  );
}
