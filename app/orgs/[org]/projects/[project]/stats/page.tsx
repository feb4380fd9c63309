import Link from "next/link";
import { projectOutcomes } from "@/src/core/outcomes/query";
import { isoText } from "@/src/core/time-text";
import { OutcomeChart, type ChartSeries } from "../../../../../components/outcome-chart";
import { loadProject } from "../../../../../lib/loaders";
import { ctx } from "../../../../../lib/app-runtime";
import { ProjectPageHeading } from "../../../../../components/shell/page-crumbs";
import { StorageFullStatsNote } from "../../../../../components/storage-full-banner";

const RANGES = { "24h": 24, "7d": 24 * 7, "30d": 24 * 30 } as const;
type Range = keyof typeof RANGES;
const HOUR = 3_600_000;

const OUTCOME_COLORS: Record<string, string> = {
  accepted: "#5b3fd1",
  filtered: "#e0a526",
  rate_limited: "#c2283a",
  invalid: "#8a8595",
  too_large: "#f06a3b",
  client_discard: "#3b9ef0",
};

export async function generateMetadata({ params }: { params: Promise<{ project: string }> }) {
  return { title: `${(await params).project} stats` };
}

export default async function StatsPage({
  params,
  searchParams,
}: {
  params: Promise<{ org: string; project: string }>;
  searchParams: Promise<{ range?: string; category?: string }>;
}) {
  const { org: orgSlug, project: projectSlug } = await params;
  const query = await searchParams;
  const range: Range = query.range && query.range in RANGES ? (query.range as Range) : "24h";
  const { org, project } = await loadProject("project:read", orgSlug, projectSlug, `/orgs/${orgSlug}/projects/${projectSlug}/stats`);

  const hours = RANGES[range];
  const end = Math.floor(Date.now() / HOUR) * HOUR;
  const start = end - (hours - 1) * HOUR;
  const rows = await projectOutcomes(ctx(), project.id, start);
  const categories = [...new Set(rows.map((r) => r.category))].sort();
  const category = query.category && categories.includes(query.category) ? query.category : null;
  const shown = category ? rows.filter((r) => r.category === category) : rows;

  // Daily buckets beyond a week keep the chart readable.
  const bucketMs = hours > 24 * 7 ? 24 * HOUR : HOUR;
  const first = Math.floor(start / bucketMs) * bucketMs;
  const buckets = Array.from({ length: Math.floor((end - first) / bucketMs) + 1 }, (_, i) => first + i * bucketMs);
  const outcomes = [...new Set(shown.map((r) => r.outcome))].sort((a, b) =>
    a === "accepted" ? -1 : b === "accepted" ? 1 : a.localeCompare(b),
  );
  const series: ChartSeries[] = outcomes.map((o) => {
    const values = buckets.map(() => 0);
    for (const r of shown) if (r.outcome === o) values[Math.floor((r.hour - first) / bucketMs)]! += r.quantity;
    return { name: o.replace("_", " "), color: OUTCOME_COLORS[o] ?? "#999", values };
  });
  const totals = new Map<string, number>();
  for (const r of shown)
    totals.set(
      `${r.category}\u0000${r.outcome}\u0000${r.reason}`,
      (totals.get(`${r.category}\u0000${r.outcome}\u0000${r.reason}`) ?? 0) + r.quantity,
    );
  const label = (t: number) => {
    const d = isoText(t);
    return bucketMs === HOUR && hours <= 24 ? d.slice(11, 16) : d.slice(5, 10);
  };
  const base = `/orgs/${org.slug}/projects/${project.slug}/stats`;
  const href = (r: Range, c: string | null) => `${base}?range=${r}${c ? `&category=${encodeURIComponent(c)}` : ""}`;

  return (
    <main>
      <ProjectPageHeading org={org} project={project} page="Stats" />
      <div className="row" style={{ justifyContent: "space-between", marginBottom: "0.75rem" }}>
        <div className="row">
          {(Object.keys(RANGES) as Range[]).map((r) => (
            <Link
              key={r}
              href={href(r, category)}
              aria-current={r === range ? "page" : undefined}
              className={r === range ? "badge on" : "badge"}
            >
              {r}
            </Link>
          ))}
        </div>
        <div className="row">
          <Link href={href(range, null)} className={category === null ? "badge on" : "badge"}>
            all categories
          </Link>
          {categories.map((c) => (
            <Link key={c} href={href(range, c)} className={c === category ? "badge on" : "badge"}>
              {c}
            </Link>
          ))}
        </div>
      </div>
      <section className="panel">
        <StorageFullStatsNote />
        {shown.length === 0 ? (
          <p className="muted">Nothing received in this period.</p>
        ) : (
          <OutcomeChart buckets={buckets} series={series} label={label} />
        )}
      </section>
      <section className="panel">
        <h2 style={{ marginTop: 0 }}>Totals</h2>
        <table data-testid="outcome-totals">
          <thead>
            <tr>
              <th>Category</th>
              <th>Outcome</th>
              <th>Reason</th>
              <th style={{ textAlign: "right" }}>Quantity</th>
            </tr>
          </thead>
          <tbody>
            {[...totals.entries()].map(([key, quantity]) => {
              const [c, o, reason] = key.split("\u0000");
              return (
                <tr key={key}>
                  <td>{c}</td>
                  <td>{o?.replace("_", " ")}</td>
                  <td className="muted">{reason || "—"}</td>
                  <td style={{ textAlign: "right" }}>{quantity}</td>
                </tr>
              );
            })}
          </tbody>
        </table>
      </section>
    </main>
  );
}
