import { AUDIT_EVENT_NAMES, AUDIT_EVENTS, isAuditEvent } from "@/src/core/audit/events";
import { listAuditLog, type AuditPage } from "@/src/core/audit/list";
import { isTelltaleError } from "@/src/core/errors";
import { changeLines } from "@/src/core/audit/summary";
import { PageCrumbs } from "../../../components/shell/page-crumbs";
import { When } from "../../../components/when";
import { ctx } from "../../../lib/app-runtime";
import { loadOrg } from "../../../lib/loaders";
import "./audit-log.css";

export const metadata = { title: "Audit log" };

type Search = Record<string, string | string[] | undefined>;
const one = (v: string | string[] | undefined) => (Array.isArray(v) ? v[0] : v) || undefined;

/**
 * The organization's audit log, for owners and managers: who changed what and
 * when, from which address, newest first, filtered by event, person and dates. Read only: no page
 * or API changes or deletes an entry; retention (TELLTALE_AUDIT_RETENTION_DAYS) alone removes them.
 */
export default async function AuditLogPage({ params, searchParams }: { params: Promise<{ org: string }>; searchParams: Promise<Search> }) {
  const { org: slug } = await params;
  const access = await loadOrg("org:audit", slug, `/orgs/${slug}/audit-log`);
  const { org } = access;
  const search = await searchParams;
  const filter = {
    event: one(search.event),
    actor: one(search.actor),
    start: one(search.start),
    end: one(search.end),
    cursor: one(search.cursor),
  };
  let page: AuditPage | null = null;
  let problem: string | null = null;
  try {
    page = await listAuditLog({ ctx: ctx(), input: { access, filter } });
  } catch (error) {
    if (!isTelltaleError(error)) throw error;
    problem = error.message;
  }
  const base = `/orgs/${org.slug}/audit-log`;
  const next = new URLSearchParams(Object.entries(filter).filter((e): e is [string, string] => e[1] !== undefined && e[0] !== "cursor"));
  if (page?.nextCursor) next.set("cursor", String(page.nextCursor));
  return (
    <main>
      <PageCrumbs items={[{ label: org.name, href: `/orgs/${org.slug}` }, { label: "Audit log" }]} />
      <h1>Audit log</h1>
      <p className="muted">
        Who changed what in {org.name}, and from where: sign-ins, members, invitations, teams, projects, keys, tokens and settings. Entries
        cannot be changed or deleted; they are kept for the days the server&apos;s retention setting says.
      </p>
      <form className="panel audit-filters" method="get" action={base} data-testid="audit-filters">
        <label>
          Event
          <select name="event" defaultValue={filter.event ?? ""}>
            <option value="">Every event</option>
            {AUDIT_EVENT_NAMES.map((e) => (
              <option key={e} value={e}>
                {AUDIT_EVENTS[e]}
              </option>
            ))}
          </select>
        </label>
        <label>
          Person
          <select name="actor" defaultValue={filter.actor ?? ""}>
            <option value="">Anyone</option>
            {(page?.actors ?? []).map((a) => (
              <option key={a.userId} value={String(a.userId)}>
                {a.label}
              </option>
            ))}
          </select>
        </label>
        <label>
          From
          <input type="date" name="start" defaultValue={filter.start ?? ""} />
        </label>
        <label>
          To
          <input type="date" name="end" defaultValue={filter.end ?? ""} />
        </label>
        <div className="audit-filter-buttons">
          <button type="submit" className="primary">
            Filter
          </button>
          <a href={base}>Clear</a>
        </div>
      </form>
      {problem && <p className="error">{problem}</p>}
      {page && page.entries.length === 0 && (
        <div className="panel">
          <p className="muted">No entries{Object.values(filter).some(Boolean) ? " match these filters" : " yet"}.</p>
        </div>
      )}
      {page && page.entries.length > 0 && (
        <ol className="panel audit-entries" data-testid="audit-entries">
          {page.entries.map((e) => (
            <li key={e.id} className="audit-entry" data-testid="audit-entry" data-event={e.event}>
              <div className="audit-what">
                <strong>{e.actorLabel}</strong> {isAuditEvent(e.event) ? AUDIT_EVENTS[e.event] : e.event}{" "}
                {e.targetLabel !== e.actorLabel && <span className="audit-target">{e.targetLabel}</span>}
                {changeLines(e.data).length > 0 && (
                  <ul className="audit-changes">
                    {changeLines(e.data).map((line) => (
                      <li key={line}>{line}</li>
                    ))}
                  </ul>
                )}
              </div>
              <div className="audit-meta muted">
                <When ms={e.createdAt} />
                {e.ipAddress && <span> · {e.ipAddress}</span>}
                {e.actorTokenId !== null && <span> · API token</span>}
                <span className="audit-event-name"> · {e.event}</span>
              </div>
            </li>
          ))}
        </ol>
      )}
      {page?.nextCursor && (
        <p>
          <a href={`${base}?${next}`} data-testid="audit-older">
            Older entries →
          </a>
        </p>
      )}
    </main>
  );
}
