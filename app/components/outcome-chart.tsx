/**
 * A stacked bar chart of outcomes per hour, drawn as server-rendered SVG (no client code).
 * Every label is text content, never markup.
 */
export interface ChartSeries {
  name: string;
  color: string;
  values: number[];
}

const WIDTH = 900;
const HEIGHT = 220;
const PAD_LEFT = 48;
const PAD_BOTTOM = 24;

function niceMax(n: number): number {
  if (n <= 5) return 5;
  const magnitude = 10 ** Math.floor(Math.log10(n));
  for (const step of [1, 2, 2.5, 5, 10]) if (step * magnitude >= n) return step * magnitude;
  return 10 * magnitude;
}

export function OutcomeChart({ buckets, series, label }: { buckets: number[]; series: ChartSeries[]; label: (t: number) => string }) {
  const totals = buckets.map((_, i) => series.reduce((sum, s) => sum + (s.values[i] ?? 0), 0));
  const max = niceMax(Math.max(0, ...totals));
  const plotW = WIDTH - PAD_LEFT - 8;
  const plotH = HEIGHT - PAD_BOTTOM - 8;
  const barW = plotW / Math.max(1, buckets.length);
  const y = (v: number) => 8 + plotH - (v / max) * plotH;
  const labelEvery = Math.max(1, Math.ceil(buckets.length / 8));
  return (
    <figure style={{ margin: 0 }}>
      <svg viewBox={`0 0 ${WIDTH} ${HEIGHT}`} width="100%" role="img" aria-label="Outcomes per hour" data-testid="outcome-chart">
        {[0, 0.5, 1].map((f) => (
          <g key={f}>
            <line x1={PAD_LEFT} x2={WIDTH - 8} y1={y(max * f)} y2={y(max * f)} className="chart-grid" />
            <text x={PAD_LEFT - 6} y={y(max * f) + 4} textAnchor="end" className="chart-label">
              {Math.round(max * f)}
            </text>
          </g>
        ))}
        {buckets.map((t, i) => {
          let base = 0;
          return (
            <g key={t}>
              {series.map((s) => {
                const v = s.values[i] ?? 0;
                if (v === 0) return null;
                const top = y(base + v);
                const rect = (
                  <rect
                    key={s.name}
                    x={PAD_LEFT + i * barW + 1}
                    width={Math.max(1, barW - 2)}
                    y={top}
                    height={y(base) - top}
                    fill={s.color}
                  >
                    <title>{`${label(t)}: ${v} ${s.name}`}</title>
                  </rect>
                );
                base += v;
                return rect;
              })}
              {i % labelEvery === 0 && (
                <text x={PAD_LEFT + i * barW + barW / 2} y={HEIGHT - 6} textAnchor="middle" className="chart-label">
                  {label(t)}
                </text>
              )}
            </g>
          );
        })}
      </svg>
      <figcaption className="row" style={{ gap: "1rem" }}>
        {series.map((s) => (
          <span key={s.name}>
            <span className="legend-swatch" style={{ background: s.color }} />
            {s.name}
          </span>
        ))}
      </figcaption>
    </figure>
  );
}
