import Link from "next/link";
import type { NormalizedEvent } from "@/src/core/normalize/types";
import { Breadcrumbs } from "@/app/components/issue/breadcrumbs";
import { Contexts, shownContexts } from "@/app/components/issue/contexts";
import { ExceptionChain } from "@/app/components/issue/exception";
import { KeyValues } from "@/app/components/issue/key-values";
import { ProcessingErrors } from "@/app/components/issue/processing-errors";
import { Attachments } from "./attachments";

/** The view options of the event panels, as the page's query string holds them. */
export interface EventView {
  frames?: string;
  view?: string;
  bc_level?: string;
  bc_category?: string;
}

/** The shown event's panels, each only when the event has what it shows; `keep` links a view change. */
export function EventDetails({
  event,
  q,
  keep,
  orgSlug,
  projectSlug,
  projectId,
  eventId,
}: {
  event: NormalizedEvent;
  q: EventView;
  keep: (changes: Record<string, string | null>) => string;
  orgSlug: string;
  projectSlug: string;
  projectId: number;
  eventId: string;
}) {
  return (
    <>
      <ProcessingErrors errors={event.errors ?? []} />
      {event.exception && (
        <section className="panel">
          <div className="row" style={{ justifyContent: "space-between" }}>
            <h2 style={{ margin: 0 }}>Exception</h2>
            <div className="row">
              <Link className={q.frames === "all" ? "badge" : "badge on"} href={keep({ frames: null })}>
                In app
              </Link>
              <Link className={q.frames === "all" ? "badge on" : "badge"} href={keep({ frames: "all" })}>
                Full
              </Link>
              <Link className={q.view === "raw" ? "badge on" : "badge"} href={keep({ view: q.view === "raw" ? null : "raw" })}>
                Raw
              </Link>
            </div>
          </div>
          <ExceptionChain values={event.exception.values} full={q.frames === "all"} raw={q.view === "raw"} />
        </section>
      )}
      {event.logentry && (
        <section className="panel">
          <h2 style={{ marginTop: 0 }}>Message</h2>
          <pre style={{ whiteSpace: "pre-wrap", background: "transparent", color: "inherit", padding: 0 }} data-testid="message">
            {event.logentry.formatted}
          </pre>
        </section>
      )}
      {event.breadcrumbs && event.breadcrumbs.values.length > 0 && (
        <section className="panel">
          <h2 style={{ marginTop: 0 }}>Breadcrumbs</h2>
          <Breadcrumbs
            crumbs={event.breadcrumbs.values}
            level={q.bc_level ?? null}
            category={q.bc_category ?? null}
            href={(l, cat) => keep({ bc_level: l, bc_category: cat })}
          />
        </section>
      )}
      {event.request && (
        <section className="panel" data-testid="request-panel">
          <h2 style={{ marginTop: 0 }}>Request</h2>
          <KeyValues
            testId="request"
            rows={[
              ["URL", event.request.url],
              ["Method", event.request.method],
              ["Query", event.request.query_string],
              ["Body", event.request.data],
              ["Environment", event.request.env],
            ]}
          />
          {/* Headers and cookies get full-width tables of their own: nested in a row they are unreadable at 390 px. */}
          {event.request.headers && (
            <>
              <h3 className="kv-title">Headers</h3>
              <KeyValues testId="request-headers" rows={event.request.headers} />
            </>
          )}
          {event.request.cookies && (
            <>
              <h3 className="kv-title">Cookies</h3>
              <KeyValues testId="request-cookies" rows={event.request.cookies} />
            </>
          )}
        </section>
      )}
      {event.user && (
        <section className="panel">
          <h2 style={{ marginTop: 0 }}>User</h2>
          <KeyValues testId="user" rows={Object.entries(event.user)} />
        </section>
      )}
      {event.contexts && shownContexts(event.contexts).length > 0 && (
        <section className="panel">
          <h2 style={{ marginTop: 0 }}>Contexts</h2>
          <Contexts contexts={event.contexts} />
        </section>
      )}
      {(event.tags?.length ?? 0) > 0 && (
        <section className="panel">
          <h2 style={{ marginTop: 0 }}>Tags</h2>
          <KeyValues rows={event.tags ?? []} />
        </section>
      )}
      {event.extra && Object.keys(event.extra).length > 0 && (
        <section className="panel">
          <h2 style={{ marginTop: 0 }}>Additional data</h2>
          <KeyValues rows={Object.entries(event.extra)} />
        </section>
      )}
      <Attachments orgSlug={orgSlug} projectSlug={projectSlug} projectId={projectId} eventId={eventId} />
      {event.sdk && (
        <section className="panel">
          <h2 style={{ marginTop: 0 }}>SDK</h2>
          <KeyValues
            rows={[
              ["Name", event.sdk.name],
              ["Version", event.sdk.version],
              ["Integrations", event.sdk.integrations?.join(", ")],
            ]}
          />
        </section>
      )}
    </>
  );
}
