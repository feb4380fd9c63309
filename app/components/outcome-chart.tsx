/**
 * A stacked bar chart of outcomes per hour, drawn as server-rendered SVG (no client code).
 * Every label is text content, never markup.
 */
export interface ChartSeries {
  name: string;
  color: string;
  values: number[];
}

/** A rate drawn over the bars on its own 0–100 % scale (right axis); null where there is none. */
export interface ChartLine {
  name: string;
  color: string;
  values: (number | null)[];
  format: (rate: number) => string;
}

const DEFAULT_WIDTH = 900;
const DEFAULT_HEIGHT = 220;
const PAD_LEFT = 48;
const PAD_BOTTOM = 24;

/**
 * The top of the count axis: a round number at least `n`, and even, so the middle gridline is a
 * whole count too (counts have no halves: 0, 3, 6, never 0, 3, 5 from rounding 2.5).
 */
export function chartMax(n: number): number {
  if (n <= 2) return 2;
  const magnitude = 10 ** Math.floor(Math.log10(n));
  for (const step of [1, 2, 3, 4, 5, 6, 8, 10]) {
    const top = step * magnitude;
    if (top >= n && top % 2 === 0) return top;
  }
  return 10 * magnitude;
}

/** Room right of the plot for the line's scale label, so the line's last dot never sits under it. */
const LINE_LABEL_ROOM = 44;

export function OutcomeChart({
  buckets,
  series,
  label,
  line,
  ariaLabel = "Outcomes per hour",
  testId = "outcome-chart",
  size = { width: DEFAULT_WIDTH, height: DEFAULT_HEIGHT },
}: {
  buckets: number[];
  series: ChartSeries[];
  label: (t: number) => string;
  line?: ChartLine;
  ariaLabel?: string;
  testId?: string;
  /** The drawing's own units: a narrower one keeps its labels readable on a phone. */
  size?: { width: number; height: number };
}) {
  const { width: WIDTH, height: HEIGHT } = size;
  const totals = buckets.map((_, i) => series.reduce((sum, s) => sum + (s.values[i] ?? 0), 0));
  const max = chartMax(Math.max(0, ...totals));
  const right = WIDTH - (line ? LINE_LABEL_ROOM : 8);
  const plotW = right - PAD_LEFT;
  const plotH = HEIGHT - PAD_BOTTOM - 8;
  const barW = plotW / Math.max(1, buckets.length);
  const y = (v: number) => 8 + plotH - (v / max) * plotH;
  const labelEvery = Math.max(1, Math.ceil(buckets.length / 8));
  const rateY = (r: number) => 8 + plotH - r * plotH;
  const points = line
    ? line.values.flatMap((v, i) => (v === null ? [] : [{ x: PAD_LEFT + i * barW + barW / 2, y: rateY(v), v, t: buckets[i] ?? 0 }]))
    : [];
  return (
    <figure style={{ margin: 0 }}>
      <svg viewBox={`0 0 ${WIDTH} ${HEIGHT}`} width="100%" role="img" aria-label={ariaLabel} data-testid={testId}>
        {[0, 0.5, 1].map((f) => (
          <g key={f}>
            <line x1={PAD_LEFT} x2={right} y1={y(max * f)} y2={y(max * f)} className="chart-grid" />
            <text x={PAD_LEFT - 6} y={y(max * f) + 4} textAnchor="end" className="chart-label">
              {max * f}
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
        {line && points.length > 0 && (
          <g data-testid={`${testId}-line`}>
            <text x={WIDTH - 2} y={rateY(1) + 4} textAnchor="end" className="chart-label" data-testid={`${testId}-line-label`}>
              {line.format(1)}
            </text>
            <polyline points={points.map((p) => `${p.x},${p.y}`).join(" ")} fill="none" stroke={line.color} strokeWidth={2} />
            {points.map((p) => (
              <circle key={p.t} cx={p.x} cy={p.y} r={3} fill={line.color}>
                <title>{`${label(p.t)}: ${line.name} ${line.format(p.v)}`}</title>
              </circle>
            ))}
          </g>
        )}
      </svg>
      <figcaption className="row" style={{ gap: "1rem" }}>
        {series.map((s) => (
          <span key={s.name}>
            <span className="legend-swatch" style={{ background: s.color }} />
            {s.name}
          </span>
        ))}
        {line && (
          <span>
            <span className="legend-swatch" style={{ background: line.color, height: 3, verticalAlign: "middle" }} />
            {line.name}
          </span>
        )}
      </figcaption>
    </figure>
  );
}
