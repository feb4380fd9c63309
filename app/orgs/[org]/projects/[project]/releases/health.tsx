import type { ReleaseHealth } from "@/src/core/releases/health-math";
import { formatRate } from "@/src/core/releases/health-math";
import { HEALTH_PERIODS, type HealthPeriod } from "@/src/core/releases/health";
import { OutcomeChart } from "../../../../../components/outcome-chart";

const HOUR = 3_600_000;

/** An environment from the URL: at most what the digest stores (64 characters); "" means all. */
export const environmentParam = (value: string | string[] | undefined): string => (typeof value === "string" ? value.slice(0, 64) : "");

/** The query string that keeps the page's filters on a link (environment, period). */
export function filterQuery(filters: { environment: string; period?: HealthPeriod }): string {
  const q = new URLSearchParams();
  if (filters.environment) q.set("environment", filters.environment);
  if (filters.period && filters.period !== "14d") q.set("period", filters.period);
  const s = q.toString();
  return s ? `?${s}` : "";
}

/**
 * The environment selector of the releases pages: a plain GET form (works without script), its
 * choices the environments the project's sessions, events and deploys named.
 */
export function EnvironmentFilter({
  action,
  environments,
  environment,
  period,
}: {
  action: string;
  environments: readonly string[];
  environment: string;
  period?: HealthPeriod;
}) {
  const choices = environment && !environments.includes(environment) ? [...environments, environment] : environments;
  return (
    <form className="toolbar" method="get" action={action} data-testid="environment-filter">
      <select name="environment" defaultValue={environment} style={{ width: "auto" }} aria-label="Environment">
        <option value="">All environments</option>
        {choices.map((e) => (
          <option key={e} value={e}>
            {e}
          </option>
        ))}
      </select>
      {period && period !== "14d" && <input type="hidden" name="period" value={period} />}
      <button type="submit">Filter</button>
    </form>
  );
}

/** A crash-free rate, or "—" when the release had no session (no user) in the window. */
export const rateText = (health: ReleaseHealth | undefined, key: "crashFreeSessions" | "crashFreeUsers"): string =>
  health && health.sessions > 0 ? formatRate(health[key]) : "—";
export const adoptionText = (health: ReleaseHealth | undefined): string =>
  health && health.sessions > 0 && health.adoption !== null ? formatRate(health.adoption, "nearest") : "—";

const dayLabel = (t: number) => new Date(t).toLocaleDateString("en-GB", { day: "numeric", month: "short", timeZone: "UTC" });
const hourLabel = (t: number) => `${String(new Date(t).getUTCHours()).padStart(2, "0")}:00`;
const plural = (n: number, one: string) => `${n} ${one}${n === 1 ? "" : "s"}`;

/** The release page's health panel: rates, totals, and sessions with the crash-free rate over time. */
export function HealthPanel({
  health,
  period,
  periodHref,
  environment,
}: {
  health: ReleaseHealth;
  period: HealthPeriod;
  periodHref: (p: HealthPeriod) => string;
  environment: string;
}) {
  const hourly = (health.series[1]?.start ?? 0) - (health.series[0]?.start ?? 0) === HOUR;
  const where = environment ? ` in ${environment}` : "";
  return (
    <section className="panel" data-testid="release-health">
      <div className="row" style={{ justifyContent: "space-between", flexWrap: "wrap" }}>
        <h2 className="panel-title">Release health</h2>
        <nav className="freq-toggle" aria-label="Health period">
          {(Object.keys(HEALTH_PERIODS) as HealthPeriod[]).map((p) => (
            <a key={p} href={periodHref(p)} aria-current={p === period ? "true" : undefined} data-testid={`health-${p}`}>
              {p === "24h" ? "24 hours" : "14 days"}
            </a>
          ))}
        </nav>
      </div>
      {health.sessions === 0 && health.users === 0 ? (
        <p className="muted" data-testid="no-sessions">
          No sessions{where} in the last {period === "24h" ? "24 hours" : "14 days"}. The browser and mobile SDKs send them by default;
          server SDKs per request or per process.
        </p>
      ) : (
        <>
          <dl className="facts" data-testid="health-facts">
            <div>
              <dt>Crash-free sessions</dt>
              <dd data-testid="crash-free-sessions">{rateText(health, "crashFreeSessions")}</dd>
            </div>
            <div>
              <dt>Crash-free users</dt>
              <dd data-testid="crash-free-users">{health.users > 0 ? formatRate(health.crashFreeUsers) : "—"}</dd>
            </div>
            <div>
              <dt>Adoption (24 h)</dt>
              <dd data-testid="adoption">{adoptionText(health)}</dd>
            </div>
            <div>
              <dt>Sessions</dt>
              <dd data-testid="sessions">{health.sessions}</dd>
            </div>
            <div>
              <dt>Users</dt>
              <dd data-testid="users">
                {health.users}
                {health.untrackedUsers > 0 ? "+" : ""}
              </dd>
            </div>
            <div>
              <dt>Crashed</dt>
              <dd data-testid="crashed">{health.crashed}</dd>
            </div>
            <div>
              <dt>Unhandled</dt>
              <dd data-testid="unhandled">{health.unhandled}</dd>
            </div>
            <div>
              <dt>Errored</dt>
              <dd data-testid="errored">{health.errored}</dd>
            </div>
          </dl>
          {health.untrackedUsers > 0 && (
            <p className="muted-small">
              Past 20,000 users a day per release and environment, new users are not told apart: {plural(health.untrackedUsers, "user")}{" "}
              more were seen, and crash-free users is computed from the first ones.
            </p>
          )}
          <OutcomeChart
            buckets={health.series.map((p) => p.start)}
            series={[
              { name: "healthy", color: "#1f7a4d", values: health.series.map((p) => p.healthy) },
              { name: "errored", color: "#e0a526", values: health.series.map((p) => p.errored) },
              { name: "unhandled", color: "#f06a3b", values: health.series.map((p) => p.unhandled) },
              { name: "abnormal", color: "#8a8595", values: health.series.map((p) => p.abnormal) },
              { name: "crashed", color: "#c2283a", values: health.series.map((p) => p.crashed) },
            ]}
            line={{
              name: "crash-free sessions",
              color: "#5b3fd1",
              values: health.series.map((p) => p.crashFree),
              format: (r) => formatRate(r),
            }}
            label={hourly ? hourLabel : dayLabel}
            ariaLabel={`Sessions ${hourly ? "per hour" : "per day"} (UTC) by how they ended, and the crash-free rate`}
            testId="health-chart"
            size={{ width: 560, height: 180 }}
          />
        </>
      )}
    </section>
  );
}
