import { resolve } from "node:path";
import { z } from "zod";
import { parseTrustProxy, type TrustProxy } from "../core/net/client-ip";

/**
 * The one settings table. Every setting has a name, a default and a description; a test
 * (test/integration/readme.test.ts) keeps the README's table in step with this list.
 * This module is the only reader of `process.env`.
 */
export const SETTINGS = {
  PORT: { default: "8000", doc: "Port the HTTP server listens on." },
  TELLTALE_HOST: { default: "0.0.0.0", doc: "Address the HTTP server binds to." },
  TELLTALE_URL: {
    default: "http://localhost:$PORT",
    doc: "Public base URL, used in DSNs and links. Set it to the https URL users reach behind a proxy.",
  },
  TELLTALE_DATA_DIR: { default: "./data", doc: "Directory for the SQLite database and other local data." },
  DATABASE_URL: {
    default: "(unset: SQLite in the data directory)",
    doc: "`postgres://user:pass@host:5432/db` switches storage to PostgreSQL.",
  },
  TELLTALE_PG_POOL_MAX: { default: "10", doc: "Connections per process in the PostgreSQL pool." },
  TELLTALE_SELF_DSN: {
    default: "(unset: report to itself)",
    doc: "Where Telltale reports its own errors and traces: unset reports to its internal project, a DSN reports there, `off` disables self-monitoring.",
  },
  TELLTALE_SELF_TRACES_SAMPLE_RATE: {
    default: "0.1",
    doc: "Share of Telltale's own requests traced (0 to 1). A traced page view stores some 50 to 100 spans, so a tenth keeps the internal project small.",
  },
  TELLTALE_SESSION_DAYS: { default: "14", doc: "Lifetime of a login session, in days." },
  TELLTALE_LOGIN_MAX_FAILURES: {
    default: "10",
    doc: 'Sign-in attempts that may fail per client address (IPv6: per /64) within the window; past it that address\'s sign-ins are refused, even with the right password: the sign-in form (a server action, so HTTP 200) says "Too many failed sign-in attempts" and in how many minutes to try again.',
  },
  TELLTALE_LOGIN_ACCOUNT_MAX_FAILURES: {
    default: "100",
    doc: "Sign-in attempts that may fail per account from all addresses together within the window, against guessing from many addresses; past it the account's sign-ins are refused the same way until the window ends.",
  },
  TELLTALE_LOGIN_WINDOW_SECONDS: { default: "900", doc: "Window for counting failed logins, in seconds." },
  TELLTALE_SMTP_URL: {
    default: "(unset: no email)",
    doc: "SMTP server for outgoing email (password resets): `smtp://user:pass@host:587` (STARTTLS when offered) or `smtps://user:pass@host:465`. Unset, the sign-in page's password reset asks users to see an administrator.",
  },
  TELLTALE_EMAIL_FROM: {
    default: "Telltale <telltale@HOST of TELLTALE_URL>",
    doc: "Sender of outgoing email, `Name <address>` or an address.",
  },
  TELLTALE_TRUST_PROXY: {
    default: "false",
    doc: "Reverse proxies whose `X-Forwarded-For` / `-Proto` / `-Host` are believed (client IP, Secure cookies): `false`, a number of proxy hops (`true` = 1), or a comma-separated list of proxy addresses or CIDR ranges (IPv4/IPv6). The client IP is the right-most address not a trusted proxy.",
  },
  TELLTALE_LOG_LEVEL: { default: "info", doc: "`debug`, `info`, `warn` or `error`." },
  TELLTALE_DEBUG_PAGES: {
    default: "false",
    doc: "`true` serves `/debug/server-error` and `/debug/client-error` to signed-in users: pages that throw on purpose, to test the error pages and self-monitoring. Off in production.",
  },
  TELLTALE_RATE_LIMITS: {
    default: "(none)",
    doc: "Global quotas for all projects together, `category:count/seconds` separated by commas (`*` for every category), e.g. `error:5000/60,*:20000/60`.",
  },
  TELLTALE_MAX_REQUEST_BYTES: {
    default: "104857600",
    doc: "Largest ingest request body on the wire (compressed), in bytes; larger answers 413.",
  },
  TELLTALE_MAX_ENVELOPE_BYTES: {
    default: "209715200",
    doc: "Largest envelope after decompression, in bytes (Relay: 200 MiB); a decompression bomb stops here.",
  },
  TELLTALE_MAX_EVENT_BYTES: { default: "1048576", doc: "Largest event or transaction item, and `/store/` body, in bytes (Relay: 1 MiB)." },
  TELLTALE_MAX_ATTACHMENT_BYTES: {
    default: "104857600",
    doc: "Largest attachment, in bytes. Attachments stream to a temporary file (TMPDIR), never whole into memory, and into the database once their envelope is accepted.",
  },
  TELLTALE_MAX_ATTACHMENTS: { default: "30", doc: "Attachments per envelope (Relay: 30)." },
  TELLTALE_MAX_SESSIONS: { default: "100", doc: "Session updates per envelope (Relay: 100)." },
  TELLTALE_MAX_ENVELOPE_ITEMS: { default: "1000", doc: "Items per envelope; more answers 413." },
  TELLTALE_MAX_ITEMS_BYTES: {
    default: "20971520",
    doc: "Bytes of non-attachment items one request may hold in memory while it is accepted; more answers 413.",
  },
  TELLTALE_INGEST_MEMORY_BYTES: {
    default: "268435456",
    doc: "Bytes all ingest requests together may hold in memory (their items, bodies read whole, and a streamed body's zstd or brotli window); past it new requests answer 503 (back-pressure).",
  },
  TELLTALE_MAX_QUEUE: {
    default: "200000",
    doc: "Accepted envelopes waiting to be digested; past it ingest answers 503 until digest catches up.",
  },
  TELLTALE_HEADERS_TIMEOUT_MS: {
    default: "20000",
    doc: "Time a client has to send a request's headers, in milliseconds; slower answers 408 and the connection is closed.",
  },
  TELLTALE_IDLE_TIMEOUT_MS: {
    default: "60000",
    doc: "A connection on which nothing moves either way for this long, in milliseconds, is closed.",
  },
  TELLTALE_REQUEST_TIMEOUT_MS: {
    default: "600000",
    doc: "Time a client has to send a whole request, body included, in milliseconds (100 MiB at 175 KB/s fits); slower answers 408.",
  },
  TELLTALE_MIN_BODY_RATE: {
    default: "1024",
    doc:
      "Fewest bytes per second a request body must arrive at, averaged over `TELLTALE_BODY_RATE_WINDOW_MS`, " +
      "while the server is reading; slower answers 408 and the connection is closed.",
  },
  TELLTALE_BODY_RATE_WINDOW_MS: { default: "10000", doc: "Window over which `TELLTALE_MIN_BODY_RATE` is measured, in milliseconds." },
  TELLTALE_RETENTION_DAYS: {
    default: "90",
    doc: "Events, traces, logs and other stored items older than this many days are deleted (issue counts stay).",
  },
  TELLTALE_INTERNAL_RETENTION_DAYS: {
    default: "7",
    doc: "Retention of the internal project (Telltale's own errors and traces), in days, in place of `TELLTALE_RETENTION_DAYS`.",
  },
  TELLTALE_MAX_EVENTS_PER_ISSUE: { default: "10000", doc: "Only the newest this-many events of each issue are kept; counts stay correct." },
  TELLTALE_ALERTS_ALLOW_PRIVATE_URLS: {
    default: "false",
    doc: "Send alert webhooks, Slack and Discord messages to loopback, private, link-local, unique-local, CGNAT and multicast addresses too (checked against every address the URL and each redirect resolve to). Off, such URLs are refused: a rule's author could otherwise reach the server's own network.",
  },
  TELLTALE_AUDIT_RETENTION_DAYS: {
    default: "365",
    doc: "Audit-log entries older than this many days are deleted; nothing else deletes or changes them.",
  },
  TELLTALE_SECRET_KEY: {
    default: "(unset: no single sign-on; two-factor secrets stored plain)",
    doc: "At least 32 random characters (`openssl rand -base64 48`): the key that seals stored secrets with AES-256-GCM — OpenID client secrets and single sign-on's cookie, two-factor (TOTP) secrets. Unset, organizations cannot set up single sign-on and TOTP secrets are stored plain. Keep it: a new key makes sealed secrets unreadable (client secrets must be entered again, two-factor users sign in with a recovery code).",
  },
} as const satisfies Record<string, { default: string; doc: string }>;

const MiB = 1024 * 1024;
const boolText = z.enum(["true", "false", "1", "0", "yes", "no"]).transform((v) => ["true", "1", "yes"].includes(v));
const NO_PROXY: TrustProxy = { kind: "none" };
const port = z.coerce.number().int().min(0).max(65535);
const positiveInt = z.coerce.number().int().positive();
const SELF_DSN = /^https?:\/\/[^@/]+@[^/]+\/.*\d+$/;

const envSchema = z.object({
  PORT: port.default(8000),
  TELLTALE_HOST: z.string().min(1).default("0.0.0.0"),
  TELLTALE_URL: z.string().url().optional(),
  TELLTALE_DATA_DIR: z.string().min(1).default("./data"),
  DATABASE_URL: z
    .string()
    .regex(/^postgres(ql)?:\/\//, "DATABASE_URL must be a postgres:// URL")
    .optional(),
  TELLTALE_PG_POOL_MAX: positiveInt.default(10),
  TELLTALE_SELF_DSN: z
    .string()
    .refine((v) => v === "self" || v.toLowerCase() === "off" || SELF_DSN.test(v), {
      error: (issue) => `expected "off" or a DSN like https://key@host/1, got "${String(issue.input)}"`,
    })
    .optional(),
  TELLTALE_SELF_TRACES_SAMPLE_RATE: z.coerce.number().min(0).max(1).default(0.1),
  TELLTALE_SESSION_DAYS: positiveInt.default(14),
  TELLTALE_LOGIN_MAX_FAILURES: positiveInt.default(10),
  TELLTALE_LOGIN_ACCOUNT_MAX_FAILURES: positiveInt.default(100),
  TELLTALE_LOGIN_WINDOW_SECONDS: positiveInt.default(900),
  TELLTALE_SMTP_URL: z
    .string()
    .regex(/^smtps?:\/\/[^/?#]+/, "expected smtp://user:pass@host:port or smtps://…")
    .optional(),
  TELLTALE_EMAIL_FROM: z.string().min(3).max(320).optional(),
  TELLTALE_TRUST_PROXY: z
    .string()
    .transform((v, c) => {
      const trust = parseTrustProxy(v);
      if (!trust) c.addIssue({ code: "custom", message: `expected false, true, a number of hops or a list of CIDR ranges, got "${v}"` });
      return trust ?? NO_PROXY;
    })
    .default(NO_PROXY),
  TELLTALE_DEBUG_PAGES: boolText.default(false),
  TELLTALE_LOG_LEVEL: z.enum(["debug", "info", "warn", "error"]).default("info"),
  TELLTALE_RATE_LIMITS: z.string().default(""),
  TELLTALE_MAX_REQUEST_BYTES: positiveInt.default(100 * MiB),
  TELLTALE_MAX_ENVELOPE_BYTES: positiveInt.default(200 * MiB),
  TELLTALE_MAX_EVENT_BYTES: positiveInt.default(MiB),
  TELLTALE_MAX_ATTACHMENT_BYTES: positiveInt.default(100 * MiB),
  TELLTALE_MAX_ATTACHMENTS: positiveInt.default(30),
  TELLTALE_MAX_SESSIONS: positiveInt.default(100),
  TELLTALE_MAX_ENVELOPE_ITEMS: positiveInt.default(1000),
  TELLTALE_MAX_ITEMS_BYTES: positiveInt.default(20 * MiB),
  TELLTALE_INGEST_MEMORY_BYTES: positiveInt.default(256 * MiB),
  TELLTALE_MAX_QUEUE: positiveInt.default(200_000),
  TELLTALE_HEADERS_TIMEOUT_MS: positiveInt.default(20_000),
  TELLTALE_IDLE_TIMEOUT_MS: positiveInt.default(60_000),
  TELLTALE_REQUEST_TIMEOUT_MS: positiveInt.default(600_000),
  TELLTALE_MIN_BODY_RATE: positiveInt.default(1024),
  TELLTALE_BODY_RATE_WINDOW_MS: positiveInt.default(10_000),
  TELLTALE_RETENTION_DAYS: positiveInt.default(90),
  TELLTALE_INTERNAL_RETENTION_DAYS: positiveInt.default(7),
  TELLTALE_MAX_EVENTS_PER_ISSUE: positiveInt.default(10_000),
  TELLTALE_ALERTS_ALLOW_PRIVATE_URLS: boolText.default(false),
  TELLTALE_AUDIT_RETENTION_DAYS: positiveInt.default(365),
  TELLTALE_SECRET_KEY: z.string().min(32, "TELLTALE_SECRET_KEY must hold at least 32 characters").max(1024).optional(),
});

export type SelfMonitoring = { mode: "self" } | { mode: "off" } | { mode: "dsn"; dsn: string };

export interface IngestSettings {
  /** Global quotas, `category:count/seconds,…` (parsed by the rate limiter). */
  rateLimits: string;
  maxRequestBytes: number;
  maxEnvelopeBytes: number;
  maxEventBytes: number;
  maxAttachmentBytes: number;
  maxAttachments: number;
  maxSessions: number;
  maxEnvelopeItems: number;
  maxItemsBytes: number;
  memoryBytes: number;
  maxQueue: number;
}

/** How long the front server waits on a client (slow-client protection, README "Security"). */
export interface ClientTimeouts {
  headersMs: number;
  idleMs: number;
  requestMs: number;
  minBodyBytesPerSecond: number;
  bodyRateWindowMs: number;
}

export type Database = { kind: "sqlite"; file: string } | { kind: "postgres"; url: string; poolMax: number };

export interface Settings {
  port: number;
  host: string;
  publicUrl: string;
  dataDir: string;
  database: Database;
  selfMonitoring: SelfMonitoring;
  selfTracesSampleRate: number;
  sessionDays: number;
  loginMaxFailures: number;
  loginAccountMaxFailures: number;
  loginWindowSeconds: number;
  /** Outgoing email; null when TELLTALE_SMTP_URL is unset. The URL holds a secret: never log it. */
  email: { smtpUrl: string; from: string } | null;
  trustProxy: TrustProxy;
  /** Serve the pages under /debug that throw on purpose (tests of the error pages). */
  debugPages: boolean;
  logLevel: "debug" | "info" | "warn" | "error";
  ingest: IngestSettings;
  clients: ClientTimeouts;
  /** `internalDays` applies to the internal project (self-monitoring), `days` to every other. */
  retention: { days: number; internalDays: number; maxEventsPerIssue: number; auditDays: number };
  /** Where alert webhooks may go (decision 0018). */
  alerts: { allowPrivateUrls: boolean };
  /** Seals stored secrets (src/core/crypto/secret-box.ts: TOTP, OpenID client secrets, the sign-in cookie); null: TOTP secrets are stored plain and single sign-on is off. Never log it. */
  secretKey: string | null;
}

export class SettingsError extends Error {}

/** Parses settings from an environment; throws a SettingsError naming every bad variable. */
export function parseSettings(env: Record<string, string | undefined>): Settings {
  const present = Object.fromEntries(Object.entries(env).filter(([, v]) => v !== undefined && v !== ""));
  const result = envSchema.safeParse(present);
  if (!result.success) {
    const lines = result.error.issues.map((i) => `${i.path.join(".")}: ${i.message}`);
    throw new SettingsError(`Invalid settings:\n  ${lines.join("\n  ")}`);
  }
  const e = result.data;
  const dataDir = resolve(e.TELLTALE_DATA_DIR);
  const publicUrl = (e.TELLTALE_URL ?? `http://localhost:${e.PORT}`).replace(/\/+$/, "");
  return {
    port: e.PORT,
    host: e.TELLTALE_HOST,
    publicUrl,
    dataDir,
    database: e.DATABASE_URL
      ? { kind: "postgres", url: e.DATABASE_URL, poolMax: e.TELLTALE_PG_POOL_MAX }
      : { kind: "sqlite", file: resolve(dataDir, "telltale.sqlite") },
    selfMonitoring: parseSelfMonitoring(e.TELLTALE_SELF_DSN),
    selfTracesSampleRate: e.TELLTALE_SELF_TRACES_SAMPLE_RATE,
    sessionDays: e.TELLTALE_SESSION_DAYS,
    loginMaxFailures: e.TELLTALE_LOGIN_MAX_FAILURES,
    loginAccountMaxFailures: e.TELLTALE_LOGIN_ACCOUNT_MAX_FAILURES,
    loginWindowSeconds: e.TELLTALE_LOGIN_WINDOW_SECONDS,
    email: e.TELLTALE_SMTP_URL
      ? { smtpUrl: e.TELLTALE_SMTP_URL, from: e.TELLTALE_EMAIL_FROM ?? `Telltale <telltale@${new URL(publicUrl).hostname}>` }
      : null,
    trustProxy: e.TELLTALE_TRUST_PROXY,
    debugPages: e.TELLTALE_DEBUG_PAGES,
    logLevel: e.TELLTALE_LOG_LEVEL,
    ingest: {
      rateLimits: e.TELLTALE_RATE_LIMITS,
      maxRequestBytes: e.TELLTALE_MAX_REQUEST_BYTES,
      maxEnvelopeBytes: e.TELLTALE_MAX_ENVELOPE_BYTES,
      maxEventBytes: e.TELLTALE_MAX_EVENT_BYTES,
      maxAttachmentBytes: e.TELLTALE_MAX_ATTACHMENT_BYTES,
      maxAttachments: e.TELLTALE_MAX_ATTACHMENTS,
      maxSessions: e.TELLTALE_MAX_SESSIONS,
      maxEnvelopeItems: e.TELLTALE_MAX_ENVELOPE_ITEMS,
      maxItemsBytes: e.TELLTALE_MAX_ITEMS_BYTES,
      memoryBytes: e.TELLTALE_INGEST_MEMORY_BYTES,
      maxQueue: e.TELLTALE_MAX_QUEUE,
    },
    clients: {
      headersMs: e.TELLTALE_HEADERS_TIMEOUT_MS,
      idleMs: e.TELLTALE_IDLE_TIMEOUT_MS,
      // Node requires headersTimeout <= requestTimeout (https://nodejs.org/api/http.html#serverheaderstimeout).
      requestMs: Math.max(e.TELLTALE_REQUEST_TIMEOUT_MS, e.TELLTALE_HEADERS_TIMEOUT_MS),
      minBodyBytesPerSecond: e.TELLTALE_MIN_BODY_RATE,
      bodyRateWindowMs: e.TELLTALE_BODY_RATE_WINDOW_MS,
    },
    retention: {
      days: e.TELLTALE_RETENTION_DAYS,
      internalDays: e.TELLTALE_INTERNAL_RETENTION_DAYS,
      maxEventsPerIssue: e.TELLTALE_MAX_EVENTS_PER_ISSUE,
      auditDays: e.TELLTALE_AUDIT_RETENTION_DAYS,
    },
    alerts: { allowPrivateUrls: e.TELLTALE_ALERTS_ALLOW_PRIVATE_URLS },
    secretKey: e.TELLTALE_SECRET_KEY ?? null,
  };
}

/** The value was validated by the schema, so that its error is reported with every other one. */
function parseSelfMonitoring(value: string | undefined): SelfMonitoring {
  if (value === undefined || value === "" || value === "self") return { mode: "self" };
  if (value.toLowerCase() === "off") return { mode: "off" };
  return { mode: "dsn", dsn: value };
}

let cached: Settings | undefined;

/** The settings of this process, parsed once from `process.env`. */
export function settings(): Settings {
  cached ??= parseSettings(process.env);
  return cached;
}
