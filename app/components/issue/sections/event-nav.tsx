import Link from "next/link";
import { adjacentEvents, type StoredEvent } from "@/src/core/issues/queries";
import { When } from "@/app/components/when";
import { ctx } from "@/app/lib/app-runtime";

/** Oldest, previous, next and newest event of the issue, and the shown event's id and raw JSON. */
export async function EventNav({
  stored,
  timestamp,
  base,
  jsonHref,
}: {
  stored: StoredEvent;
  timestamp: number;
  base: string;
  jsonHref: string;
}) {
  const neighbours = await adjacentEvents(ctx(), stored);
  return (
    <section className="panel">
      <div className="row" style={{ justifyContent: "space-between" }}>
        <div className="row" data-testid="event-nav">
          <Link href={`${base}/oldest`}>Oldest</Link>
          {neighbours.previous ? (
            <Link href={`${base}/events/${neighbours.previous.event_id}`}>Previous</Link>
          ) : (
            <span className="muted">Previous</span>
          )}
          {neighbours.next ? <Link href={`${base}/events/${neighbours.next.event_id}`}>Next</Link> : <span className="muted">Next</span>}
          <Link href={`${base}/latest`}>Latest</Link>
        </div>
        <div className="muted-small">
          Event <span data-testid="event-id">{stored.event_id}</span> · <When ms={timestamp * 1000} /> ·{" "}
          {/* The raw JSON is an /api/ endpoint: a plain link, a full page load (README, "Endpoints"). */}
          <a href={jsonHref} data-testid="raw-json">
            JSON
          </a>
        </div>
      </div>
    </section>
  );
}
