import { FREQUENCY_RANGES, type Frequency, type FrequencyRange } from "@/src/core/issues/frequency";

const W = 480;
const H = 96;
const AXIS = 18;
const LEFT = 32;

const hourLabel = (t: number) => `${String(new Date(t).getUTCHours()).padStart(2, "0")}:00`;
const dayLabel = (t: number) => new Date(t).toLocaleDateString("en-GB", { day: "numeric", month: "short", timeZone: "UTC" });

/**
 * The issue's events per hour or per day as server-rendered SVG bars. Each bar carries a
 * <title> with its period and count (hover text, and read by screen readers); the axis
 * names the first, middle and last periods in UTC, the time zone the buckets are cut in.
 */
export function FrequencyChart({ data }: { data: Frequency }) {
  const { buckets, range } = data;
  const peak = Math.max(0, ...buckets.map((b) => b.count));
  const max = Math.max(1, peak);
  const total = buckets.reduce((s, b) => s + b.count, 0);
  const plotW = W - LEFT;
  const plotH = H - AXIS;
  const bw = plotW / buckets.length;
  const label = range === "24h" ? hourLabel : dayLabel;
  const period = range === "24h" ? "the last 24 hours" : "the last 30 days";
  const ticks = [0, Math.floor(buckets.length / 2), buckets.length - 1];
  return (
    <svg
      className="freq-chart"
      viewBox={`0 0 ${W} ${H}`}
      role="img"
      aria-labelledby="freq-title"
      data-testid="frequency-chart"
      data-range={range}
    >
      <title id="freq-title">{`${total} event${total === 1 ? "" : "s"} in ${period}, ${range === "24h" ? "per hour" : "per day"} (UTC); most in one ${range === "24h" ? "hour" : "day"}: ${peak}`}</title>
      <text x={LEFT - 4} y={11} textAnchor="end" className="freq-axis">
        {max}
      </text>
      <text x={LEFT - 4} y={plotH} textAnchor="end" className="freq-axis">
        0
      </text>
      <line x1={LEFT} x2={W} y1={plotH + 0.5} y2={plotH + 0.5} className="freq-base" />
      {buckets.map((b, i) => {
        const h = b.count === 0 ? 0 : Math.max(1, (b.count / max) * (plotH - 2));
        return (
          <rect
            key={b.start}
            className="freq-bar"
            data-testid="frequency-bar"
            x={LEFT + i * bw + 1}
            width={Math.max(1, bw - 2)}
            y={plotH - h}
            height={h}
          >
            <title>{`${range === "24h" ? `${dayLabel(b.start)} ${hourLabel(b.start)}` : dayLabel(b.start)}: ${b.count} event${b.count === 1 ? "" : "s"}`}</title>
          </rect>
        );
      })}
      {ticks.map((i, n) => (
        <text
          key={i}
          x={LEFT + i * bw + bw / 2}
          y={H - 2}
          textAnchor={n === 0 ? "start" : n === 2 ? "end" : "middle"}
          className="freq-axis"
        >
          {label(buckets[i]?.start ?? 0)}
        </text>
      ))}
    </svg>
  );
}

/** The chart with its range toggle: plain links (a query parameter), so no client script. */
export function FrequencyPanel({ data, hrefFor }: { data: Frequency; hrefFor: (range: FrequencyRange) => string }) {
  return (
    <section className="freq" aria-label="Event frequency">
      <nav className="freq-toggle" aria-label="Chart range">
        {FREQUENCY_RANGES.map((r) => (
          <a key={r} href={hrefFor(r)} aria-current={r === data.range ? "true" : undefined} data-testid={`freq-${r}`}>
            {r === "24h" ? "24 hours" : "30 days"}
          </a>
        ))}
      </nav>
      <FrequencyChart data={data} />
    </section>
  );
}
