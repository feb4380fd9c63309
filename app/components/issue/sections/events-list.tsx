import Link from "next/link";
import { issueEvents } from "@/src/core/issues/queries";
import { When } from "@/app/components/when";
import { ctx } from "@/app/lib/app-runtime";

/** The issue's newest events, each a link to its page. */
export async function EventsList({ issueId, base }: { issueId: number; base: string }) {
  const events = await issueEvents(ctx(), issueId, { limit: 100 });
  return (
    <section className="panel">
      <h2 style={{ marginTop: 0 }}>Events</h2>
      <table data-testid="events-list">
        <thead>
          <tr>
            <th>Event</th>
            <th>Time</th>
            <th>Release</th>
            <th>Environment</th>
          </tr>
        </thead>
        <tbody>
          {events.map((e) => (
            <tr key={e.id}>
              <td>
                <Link href={`${base}/events/${e.event_id}`}>{e.event_id.slice(0, 8)}</Link> <span className="muted">{e.title}</span>
              </td>
              <td>
                <When ms={e.timestamp * 1000} />
              </td>
              <td>{e.release ?? ""}</td>
              <td>{e.environment ?? ""}</td>
            </tr>
          ))}
        </tbody>
      </table>
    </section>
  );
}
