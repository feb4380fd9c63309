/** One log line per event, `level message key=value…`, to stderr; event data is never logged whole. */
type Level = "debug" | "info" | "warn" | "error";
const ORDER: Record<Level, number> = { debug: 10, info: 20, warn: 30, error: 40 };
let threshold: Level = "info";

export function setLogLevel(level: Level): void {
  threshold = level;
}

export function log(level: Level, message: string, fields: Record<string, string | number | boolean | undefined> = {}): void {
  if (ORDER[level] < ORDER[threshold]) return;
  const parts = Object.entries(fields)
    .filter(([, v]) => v !== undefined)
    .map(([k, v]) => `${k}=${JSON.stringify(v)}`);
  process.stderr.write(`${new Date().toISOString()} ${level.padEnd(5)} ${message}${parts.length ? " " + parts.join(" ") : ""}\n`);
}
