/** 24 bars of hourly events as a tiny SVG; the title holds the numbers. */
export function Sparkline({ values }: { values: number[] }) {
  const max = Math.max(1, ...values);
  const w = 96;
  const h = 24;
  const bw = w / Math.max(1, values.length);
  return (
    <svg
      className="spark"
      width={w}
      height={h}
      viewBox={`0 0 ${w} ${h}`}
      role="img"
      aria-label="Events in the last 24 hours"
      data-testid="sparkline"
    >
      <title>{`${values.reduce((s, v) => s + v, 0)} events in the last 24 hours`}</title>
      {values.map((v, i) =>
        v > 0 ? <rect key={i} x={i * bw + 0.5} width={Math.max(1, bw - 1)} y={h - (v / max) * h} height={(v / max) * h} /> : null,
      )}
    </svg>
  );
}
