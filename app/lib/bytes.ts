const UNITS = ["B", "KiB", "MiB", "GiB", "TiB", "PiB"];

/** A size in binary units, as pages show sizes: 1536 → "1.5 KiB"; 25276502016 → "23.5 GiB". */
export function formatBytes(n: number): string {
  let value = n;
  let unit = 0;
  while (value >= 1024 && unit < UNITS.length - 1) {
    value /= 1024;
    unit++;
  }
  return unit === 0 ? `${value} B` : `${value.toFixed(1)} ${UNITS[unit]}`;
}
