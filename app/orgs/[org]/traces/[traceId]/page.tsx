import Link from "next/link";
import { notFound } from "next/navigation";
import { isTelltaleError } from "@/src/core/errors";
import { traceInOrg, type TraceView } from "@/src/core/traces/trace";
import { LevelDot } from "../../../../components/level-dot";
import { loadOrg } from "../../../../lib/loaders";
import { ctx } from "../../../../lib/app-runtime";
import { CurrentProject } from "../../../../components/shell/current-project";
import { PageCrumbs } from "../../../../components/shell/page-crumbs";

type Params = Promise<{ org: string; traceId: string }>;

export async function generateMetadata({ params }: { params: Params }) {
  return { title: `Trace ${(await params).traceId.slice(0, 8)}` };
}

interface Row {
  id: string;
  depth: number;
  label: string;
  detail: string;
  start: number;
  end: number;
  kind: "transaction" | "span";
}

/** Transactions and their spans as one tree, ordered by start, each child under its parent. */
function rows(trace: TraceView): Row[] {
  const out: Row[] = [];
  for (const t of trace.transactions) {
    out.push({
      id: t.span_id,
      depth: 0,
      label: `${t.op} — ${t.transaction}`,
      detail: `${t.project_slug} · ${t.status}`,
      start: t.start_timestamp,
      end: t.timestamp,
      kind: "transaction",
    });
    const children = new Map<string, typeof t.spans>();
    for (const s of t.spans) {
      const parent = s.parent_span_id ?? t.span_id;
      let list = children.get(parent);
      if (!list) children.set(parent, (list = []));
      list.push(s);
    }
    const walk = (parent: string, depth: number) => {
      for (const s of (children.get(parent) ?? []).sort((a, b) => a.start_timestamp - b.start_timestamp)) {
        if (out.length > 5000) return;
        out.push({
          id: s.span_id,
          depth,
          label: `${s.op} — ${s.description}`,
          detail: s.status,
          start: s.start_timestamp,
          end: s.timestamp,
          kind: "span",
        });
        walk(s.span_id, depth + 1);
      }
    };
    walk(t.span_id, 1);
  }
  return out;
}

export default async function TracePage({ params }: { params: Params }) {
  const { org: orgSlug, traceId } = await params;
  const access = await loadOrg("issue:read", orgSlug, `/orgs/${orgSlug}/traces/${traceId}`);
  const { org } = access;
  let trace: TraceView;
  try {
    trace = await traceInOrg(ctx(), access, traceId);
  } catch (error) {
    if (isTelltaleError(error)) notFound();
    throw error;
  }
  const all = rows(trace);
  const starts = [...all.map((r) => r.start), ...trace.errors.map((e) => e.timestamp)];
  const ends = [...all.map((r) => r.end), ...trace.errors.map((e) => e.timestamp)];
  const t0 = Math.min(...starts);
  const t1 = Math.max(...ends);
  const span = Math.max(t1 - t0, 0.001);
  const pct = (t: number) => `${((t - t0) / span) * 100}%`;
  // A 2 px marker at the trace's last instant would start at 100 % and stick out of its track.
  const markerLeft = (t: number) => `calc(${pct(t)} - ${((t - t0) / span) * 2}px)`;
  // The project the trace started in (its earliest transaction), else that of its first error.
  const root = [...trace.transactions].sort((a, b) => a.start_timestamp - b.start_timestamp)[0];
  const traceProject = root?.project_slug ?? trace.errors[0]?.project_slug ?? null;
  const count = (n: number, one: string, many: string) => `${n} ${n === 1 ? one : many}`;
  return (
    <main style={{ maxWidth: 1200 }}>
      {traceProject ? <CurrentProject slug={traceProject} /> : null}
      <PageCrumbs
        items={[{ label: org.name, href: `/orgs/${org.slug}` }, { label: "Issues", href: `/orgs/${org.slug}/issues` }, { label: "Trace" }]}
      />
      <h1>
        Trace <span className="culprit">{trace.traceId}</span>
      </h1>
      {all.length === 0 && trace.errors.length === 0 ? (
        <p className="muted">Nothing of this trace has been stored (yet).</p>
      ) : (
        <>
          <p className="muted">
            {count(trace.transactions.length, "transaction", "transactions")}, {count(trace.spanCount, "span", "spans")},{" "}
            {count(trace.errors.length, "error", "errors")} · {(span * 1000).toFixed(1)} ms
          </p>
          <section className="panel waterfall" data-testid="waterfall">
            {all.map((r) => (
              <div className="row" key={`${r.kind}-${r.id}`} data-testid={r.kind}>
                <div className="label" style={{ paddingLeft: `${0.4 + r.depth * 0.9}rem` }} title={`${r.label} (${r.detail})`}>
                  {r.label}
                </div>
                <div className="track">
                  <span
                    style={{ left: pct(r.start), width: `${Math.max(0.2, ((r.end - r.start) / span) * 100)}%` }}
                    title={`${((r.end - r.start) * 1000).toFixed(1)} ms`}
                  />
                </div>
              </div>
            ))}
            {trace.errors.map((e) => (
              <div className="row" key={e.event_id} data-testid="trace-error">
                <div className="label">
                  <LevelDot level={e.level} />
                  {e.issue_id !== null ? (
                    <Link href={`/orgs/${org.slug}/issues/${e.issue_id}/events/${e.event_id}`}>{e.title}</Link>
                  ) : (
                    e.title
                  )}
                </div>
                <div className="track">
                  <span className="marker" data-testid="trace-error-marker" style={{ left: markerLeft(e.timestamp) }} />
                </div>
              </div>
            ))}
          </section>
        </>
      )}
    </main>
  );
}
