import { resolve } from "node:path";
import { describe, expect, it } from "vitest";
import { parseSettings, SETTINGS, SettingsError } from "./settings";

function settingsError(env: Record<string, string>): SettingsError {
  try {
    parseSettings(env);
  } catch (error) {
    if (error instanceof SettingsError) return error;
    throw error;
  }
  throw new Error(`expected a SettingsError for ${JSON.stringify(env)}`);
}

describe("parseSettings", () => {
  it("uses the documented defaults for an empty environment", () => {
    expect(parseSettings({})).toMatchObject({
      port: 8000,
      host: "0.0.0.0",
      publicUrl: "http://localhost:8000",
      dataDir: resolve("./data"),
      database: { kind: "sqlite", file: resolve("./data", "telltale.sqlite") },
      selfMonitoring: { mode: "self" },
      selfTracesSampleRate: 0.1,
      sessionDays: 14,
      loginMaxFailures: 10,
      loginWindowSeconds: 900,
      trustProxy: { kind: "none" },
      logLevel: "info",
      retention: { days: 90, internalDays: 7, maxEventsPerIssue: 10_000, auditDays: 365 },
    });
  });

  it("traces a tenth of Telltale's own requests and keeps its internal project a week by default", () => {
    expect(parseSettings({})).toMatchObject({ selfTracesSampleRate: 0.1, retention: { internalDays: 7 } });
    expect(parseSettings({ TELLTALE_SELF_TRACES_SAMPLE_RATE: "1", TELLTALE_INTERNAL_RETENTION_DAYS: "30" })).toMatchObject({
      selfTracesSampleRate: 1,
      retention: { internalDays: 30 },
    });
  });

  it("keeps every default in line with the settings table", () => {
    const parsed = parseSettings({});
    expect(String(parsed.port)).toBe(SETTINGS.PORT.default);
    expect(parsed.host).toBe(SETTINGS.TELLTALE_HOST.default);
    expect(String(parsed.sessionDays)).toBe(SETTINGS.TELLTALE_SESSION_DAYS.default);
    expect(String(parsed.loginMaxFailures)).toBe(SETTINGS.TELLTALE_LOGIN_MAX_FAILURES.default);
    expect(String(parsed.loginWindowSeconds)).toBe(SETTINGS.TELLTALE_LOGIN_WINDOW_SECONDS.default);
    expect(String(parsed.selfTracesSampleRate)).toBe(SETTINGS.TELLTALE_SELF_TRACES_SAMPLE_RATE.default);
    expect(parsed.trustProxy).toEqual(parseSettings({ TELLTALE_TRUST_PROXY: SETTINGS.TELLTALE_TRUST_PROXY.default }).trustProxy);
    expect(String(parsed.loginAccountMaxFailures)).toBe(SETTINGS.TELLTALE_LOGIN_ACCOUNT_MAX_FAILURES.default);
    expect(parsed.logLevel).toBe(SETTINGS.TELLTALE_LOG_LEVEL.default);
    expect(Object.values(parsed.retention).map(String)).toEqual([
      SETTINGS.TELLTALE_RETENTION_DAYS.default,
      SETTINGS.TELLTALE_INTERNAL_RETENTION_DAYS.default,
      SETTINGS.TELLTALE_MAX_EVENTS_PER_ISSUE.default,
      SETTINGS.TELLTALE_AUDIT_RETENTION_DAYS.default,
    ]);
    expect(Object.values(parsed.clients).map(String)).toEqual([
      SETTINGS.TELLTALE_HEADERS_TIMEOUT_MS.default,
      SETTINGS.TELLTALE_IDLE_TIMEOUT_MS.default,
      SETTINGS.TELLTALE_REQUEST_TIMEOUT_MS.default,
      SETTINGS.TELLTALE_MIN_BODY_RATE.default,
      SETTINGS.TELLTALE_BODY_RATE_WINDOW_MS.default,
    ]);
  });

  it("keeps the request time-out at least the headers time-out, as node requires", () => {
    expect(parseSettings({ TELLTALE_HEADERS_TIMEOUT_MS: "5000", TELLTALE_REQUEST_TIMEOUT_MS: "1000" }).clients).toMatchObject({
      headersMs: 5000,
      requestMs: 5000,
    });
  });

  it("treats empty values as unset", () => {
    expect(parseSettings({ PORT: "", TELLTALE_URL: "", DATABASE_URL: "", TELLTALE_SELF_DSN: "" })).toEqual(parseSettings({}));
  });

  it("derives the public URL from PORT when TELLTALE_URL is unset", () => {
    expect(parseSettings({ PORT: "9100" }).publicUrl).toBe("http://localhost:9100");
  });

  it("strips trailing slashes from TELLTALE_URL but keeps its path", () => {
    expect(parseSettings({ TELLTALE_URL: "https://errors.example.com/telltale//" }).publicUrl).toBe("https://errors.example.com/telltale");
  });

  it("puts the SQLite file in the data directory", () => {
    const parsed = parseSettings({ TELLTALE_DATA_DIR: "/var/lib/telltale" });
    expect(parsed.dataDir).toBe("/var/lib/telltale");
    expect(parsed.database).toEqual({ kind: "sqlite", file: "/var/lib/telltale/telltale.sqlite" });
  });

  it("switches to PostgreSQL with the pool size when DATABASE_URL is set", () => {
    expect(parseSettings({ DATABASE_URL: "postgresql://u:p@db:5432/tt", TELLTALE_PG_POOL_MAX: "3" }).database).toEqual({
      kind: "postgres",
      url: "postgresql://u:p@db:5432/tt",
      poolMax: 3,
    });
  });

  it("reads numbers, booleans and the log level", () => {
    const parsed = parseSettings({
      TELLTALE_SESSION_DAYS: "2",
      TELLTALE_LOGIN_MAX_FAILURES: "5",
      TELLTALE_LOGIN_WINDOW_SECONDS: "60",
      TELLTALE_SELF_TRACES_SAMPLE_RATE: "0.25",
      TELLTALE_TRUST_PROXY: "yes",
      TELLTALE_LOG_LEVEL: "debug",
    });
    expect(parsed).toMatchObject({
      sessionDays: 2,
      loginMaxFailures: 5,
      loginWindowSeconds: 60,
      selfTracesSampleRate: 0.25,
      trustProxy: { kind: "hops", hops: 1 },
      logLevel: "debug",
    });
    expect(parseSettings({ TELLTALE_TRUST_PROXY: "0" }).trustProxy).toEqual({ kind: "none" });
    expect(parseSettings({ TELLTALE_TRUST_PROXY: "2" }).trustProxy).toEqual({ kind: "hops", hops: 2 });
    expect(parseSettings({ TELLTALE_TRUST_PROXY: "10.0.0.0/8, fd00::/8" }).trustProxy).toMatchObject({
      kind: "ranges",
      ranges: [{ prefix: 8 }, { prefix: 8 }],
    });
  });

  it.each([
    ["PORT", "eighty"],
    ["PORT", "70000"],
    ["PORT", "80.5"],
    ["TELLTALE_URL", "not a url"],
    ["DATABASE_URL", "mysql://db/telltale"],
    ["TELLTALE_PG_POOL_MAX", "0"],
    ["TELLTALE_SELF_TRACES_SAMPLE_RATE", "1.5"],
    ["TELLTALE_SESSION_DAYS", "-1"],
    ["TELLTALE_LOGIN_MAX_FAILURES", "many"],
    ["TELLTALE_TRUST_PROXY", "maybe"],
    ["TELLTALE_TRUST_PROXY", "10.0.0.0/33"],
    ["TELLTALE_LOGIN_WINDOW_SECONDS", "0"],
    ["TELLTALE_TRUST_PROXY", "maybe"],
    ["TELLTALE_LOG_LEVEL", "verbose"],
    ["TELLTALE_INTERNAL_RETENTION_DAYS", "0"],
  ])("rejects %s=%s with a SettingsError naming the variable", (name, value) => {
    expect(settingsError({ [name]: value }).message).toContain(`${name}:`);
  });

  it("names every invalid variable in one error", () => {
    const message = settingsError({ PORT: "x", TELLTALE_LOG_LEVEL: "loud", TELLTALE_SELF_DSN: "nonsense" }).message;
    expect(message).toContain("PORT:");
    expect(message).toContain("TELLTALE_LOG_LEVEL:");
    expect(message).toContain("TELLTALE_SELF_DSN:");
  });
});

describe("TELLTALE_SELF_DSN", () => {
  it("reports to the internal project when unset or 'self'", () => {
    expect(parseSettings({}).selfMonitoring).toEqual({ mode: "self" });
    expect(parseSettings({ TELLTALE_SELF_DSN: "self" }).selfMonitoring).toEqual({ mode: "self" });
  });

  it("disables self-monitoring for 'off' in any case", () => {
    expect(parseSettings({ TELLTALE_SELF_DSN: "off" }).selfMonitoring).toEqual({ mode: "off" });
    expect(parseSettings({ TELLTALE_SELF_DSN: "OFF" }).selfMonitoring).toEqual({ mode: "off" });
  });

  it("reports to another Sentry-compatible server for a DSN", () => {
    const dsn = "https://0123456789abcdef0123456789abcdef@sentry.example.com:9000/prefix/42";
    expect(parseSettings({ TELLTALE_SELF_DSN: dsn }).selfMonitoring).toEqual({ mode: "dsn", dsn });
  });

  it.each(["on", "https://sentry.example.com/42", "https://key@sentry.example.com/", "ftp://key@host/1"])(
    "rejects %s with a SettingsError naming TELLTALE_SELF_DSN",
    (value) => {
      expect(settingsError({ TELLTALE_SELF_DSN: value }).message).toContain("TELLTALE_SELF_DSN:");
    },
  );
});
