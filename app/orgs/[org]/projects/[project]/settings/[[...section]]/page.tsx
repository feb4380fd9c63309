import Link from "next/link";
import { notFound } from "next/navigation";
import { buildDsn } from "@/src/core/auth/dsn";
import { DsnHostWarning } from "../../../../../../components/dsn-host-warning";
import { listKeys } from "@/src/core/keys/manage";
import { roleAllows } from "@/src/core/permissions/table";
import { PLATFORMS } from "@/src/core/projects/platforms";
import { snippets } from "@/src/core/projects/snippets";
import { loadProject } from "../../../../../../lib/loaders";
import { ctx } from "../../../../../../lib/app-runtime";
import { When } from "../../../../../../components/when";
import { KeyActiveForm, NewKeyForm, RotateKeyForm } from "./keys-forms";
import { KeyLimitForm, QuotaForm, RemoveQuotaForm } from "./quota-forms";
import { FiltersForm, FingerprintRulesForm, ScrubbingForm, UpgradeGroupingForm } from "./ingest-forms";
import { fingerprintRulesText } from "@/src/core/issues/grouping-rules";
import { groupingStrategy } from "@/src/core/grouping/index";
import { DEFAULT_TRANSITION_DAYS, groupingState } from "@/src/core/projects/grouping-config";
import { exactUtc } from "../../../../../../lib/dates";
import { projectOptions } from "@/src/core/projects/options";
import { listQuotas, QUOTA_CATEGORIES } from "@/src/core/projects/quotas";
import { ProjectPageHeading } from "../../../../../../components/shell/page-crumbs";
import { DeleteProjectPanel, ProjectTeamsPanel } from "./teams-panels";

type Params = Promise<{ org: string; project: string; section?: string[] }>;

const SECTIONS = [
  { id: "", title: "General" },
  { id: "keys", title: "Client keys (DSN)" },
  { id: "rate-limits", title: "Rate limits" },
  { id: "filters", title: "Inbound filters" },
  { id: "scrubbing", title: "Data scrubbing" },
  { id: "grouping", title: "Grouping" },
  { id: "teams", title: "Teams" },
] as const;

export async function generateMetadata({ params }: { params: Params }) {
  const { project } = await params;
  return { title: `${project} settings` };
}

export default async function ProjectSettingsPage({ params }: { params: Params }) {
  const { org: orgSlug, project: projectSlug, section = [] } = await params;
  const current = section.join("/");
  if (!SECTIONS.some((s) => s.id === current)) notFound();
  const base = `/orgs/${orgSlug}/projects/${projectSlug}/settings`;
  const { org, project, role } = await loadProject("project:read", orgSlug, projectSlug, current ? `${base}/${current}` : base);
  const [keys, quotas, options, rulesText, grouping] = await Promise.all([
    listKeys(ctx(), project),
    listQuotas(ctx(), project.id),
    projectOptions(ctx(), project.id),
    fingerprintRulesText(ctx(), project.id),
    groupingState(ctx(), project.id),
  ]);
  const strategy = groupingStrategy(grouping.config);
  const newest = grouping.upgrades[grouping.upgrades.length - 1] ?? null;
  const publicUrl = ctx().publicUrl;
  const primary = keys.find((k) => k.is_active === 1);
  const primaryDsn = primary ? buildDsn(publicUrl, primary.public_key, project.id) : null;
  // The page shows controls by the table; the actions ask it again when posted.
  const manage = roleAllows(role, "project:settings:write");
  const manageKeys = roleAllows(role, "key:write");
  const rotateKeys = roleAllows(role, "key:rotate");
  const setupPath = PLATFORMS.find((p) => p.id === project.platform)?.setup ?? "javascript";

  return (
    <main>
      <ProjectPageHeading org={org} project={project} page="Settings" />
      <nav className="tabs">
        {SECTIONS.map((s) => (
          <Link key={s.id} href={s.id ? `${base}/${s.id}` : base} aria-current={s.id === current ? "page" : undefined}>
            {s.title}
          </Link>
        ))}
        <Link href={`/orgs/${org.slug}/projects/${project.slug}/alerts`}>Alerts</Link>
        <Link href={`/orgs/${org.slug}/projects/${project.slug}/setup/${setupPath}`}>Set up the SDK</Link>
      </nav>

      {current === "" && (
        <>
          <section className="panel">
            <h2 style={{ marginTop: 0 }}>DSN</h2>
            {primaryDsn ? (
              <>
                <p className="muted">Point any Sentry SDK at this DSN.</p>
                <code className="dsn" data-testid="dsn">
                  {primaryDsn}
                </code>
              </>
            ) : (
              <p className="error">Every key of this project is disabled: enable or create one under Client keys.</p>
            )}
          </section>
          <section className="panel">
            <h2 style={{ marginTop: 0 }}>Project</h2>
            <table>
              <tbody>
                <tr>
                  <th>Slug</th>
                  <td>{project.slug}</td>
                </tr>
                <tr>
                  <th>Project ID</th>
                  <td>{project.id}</td>
                </tr>
                <tr>
                  <th>Platform</th>
                  <td>{PLATFORMS.find((p) => p.id === project.platform)?.name ?? project.platform}</td>
                </tr>
                <tr>
                  <th>Created</th>
                  <td>
                    <When ms={project.created_at} />
                  </td>
                </tr>
              </tbody>
            </table>
          </section>
          <section className="panel">
            <h2 style={{ marginTop: 0 }}>Set up an SDK</h2>
            <ul>
              {(primaryDsn ? snippets(primaryDsn) : []).map((s) => (
                <li key={s.path}>
                  <Link href={`/orgs/${org.slug}/projects/${project.slug}/setup/${s.path}`}>{s.title}</Link>
                </li>
              ))}
            </ul>
          </section>
          {roleAllows(role, "project:delete") && <DeleteProjectPanel org={org.slug} project={project.slug} />}
        </>
      )}

      {current === "teams" && (
        <ProjectTeamsPanel
          orgId={org.id}
          org={org.slug}
          projectId={project.id}
          project={project.slug}
          manage={roleAllows(role, "project:write")}
        />
      )}

      {current === "keys" && (
        <section className="panel">
          <DsnHostWarning />
          <table className="stack-narrow" data-testid="keys-table">
            <thead>
              <tr>
                <th>Key</th>
                <th>DSN</th>
                <th>Status</th>
                {(manageKeys || rotateKeys) && <th />}
              </tr>
            </thead>
            <tbody>
              {keys.map((k) => (
                <tr key={k.id} data-testid="key-row">
                  <td>
                    {k.label}
                    <div className="muted">
                      created <When ms={k.created_at} />
                    </div>
                  </td>
                  <td>
                    <code className="dsn">{buildDsn(publicUrl, k.public_key, project.id)}</code>
                  </td>
                  <td>
                    <span className={k.is_active ? "badge on" : "badge off"}>{k.is_active ? "active" : "disabled"}</span>
                  </td>
                  {(manageKeys || rotateKeys) && (
                    <td>
                      <div className="row key-actions">
                        {manageKeys && <KeyActiveForm org={org.slug} project={project.slug} keyId={k.id} active={k.is_active === 1} />}
                        {rotateKeys && k.is_active === 1 && <RotateKeyForm org={org.slug} project={project.slug} keyId={k.id} />}
                      </div>
                    </td>
                  )}
                </tr>
              ))}
            </tbody>
          </table>
          <p className="muted">
            {/* A plain link: /api/ paths are endpoints, not pages, so they load in full (README, "Endpoints"). */}
            The same list in the web API:{" "}
            <a href={`/api/0/projects/${org.slug}/${project.slug}/keys/`}>
              /api/0/projects/{org.slug}/{project.slug}/keys/
            </a>
          </p>
          {manageKeys && (
            <>
              <h2>New key</h2>
              <NewKeyForm org={org.slug} project={project.slug} />
            </>
          )}
        </section>
      )}
      {current === "filters" && (
        <section className="panel">
          <p className="muted">
            Events matching a filter are dropped when they are digested and counted on the Stats page with the filter&apos;s name.
          </p>
          {manage ? (
            <FiltersForm org={org.slug} project={project.slug} values={options.filters} />
          ) : (
            <p>Only owners and admins can change filters.</p>
          )}
        </section>
      )}

      {current === "scrubbing" && (
        <section className="panel">
          <p className="muted">
            Passwords, secrets, tokens, API keys, credentials, session and CSRF cookies, credit-card numbers and private keys are always
            replaced by [Filtered] before an event, log, span, user feedback or check-in is stored. Attachments, replays and profiles are
            stored as received.
          </p>
          {manage ? (
            <ScrubbingForm
              org={org.slug}
              project={project.slug}
              extra={options.scrubbing.extraSensitiveFields}
              safe={options.scrubbing.safeFields}
              storeIp={options.scrubbing.storeIpAddresses}
            />
          ) : (
            <p>Only owners and admins can change data scrubbing.</p>
          )}
        </section>
      )}

      {current === "grouping" && (
        <section className="panel">
          <h2>Grouping version</h2>
          <p data-testid="grouping-version">
            Events group with <code>{strategy.id}</code>: {strategy.description}
          </p>
          {grouping.transitioning && grouping.previous && grouping.transitionUntil !== null && (
            <p className="muted" data-testid="grouping-transition">
              Upgraded from <code>{grouping.previous}</code>. Until {exactUtc(grouping.transitionUntil)} events are grouped with both
              versions, so issues made before the upgrade keep receiving their events.
            </p>
          )}
          {newest ? (
            manage ? (
              <>
                <p className="muted">
                  A newer version exists: <code>{newest}</code>. New issues will be made with it; for {DEFAULT_TRANSITION_DAYS} days the
                  current version still finds the issues made before.
                </p>
                <UpgradeGroupingForm org={org.slug} project={project.slug} to={newest} />
              </>
            ) : (
              <p className="muted">A newer version exists; owners and admins can upgrade.</p>
            )
          ) : (
            <p className="muted">This is the newest version.</p>
          )}
          <h2>Fingerprint rules</h2>
          <p className="muted">
            A rule gives matching events a fingerprint of your choosing; an issue page explains how its events grouped.
          </p>
          {manage ? (
            <FingerprintRulesForm org={org.slug} project={project.slug} rules={rulesText} />
          ) : (
            <pre>{rulesText || "No rules."}</pre>
          )}
        </section>
      )}

      {current === "rate-limits" && (
        <>
          <section className="panel">
            <h2 style={{ marginTop: 0 }}>Per key</h2>
            <p className="muted">
              Events (errors, transactions, feedback, check-ins) each key may send per window. Past it, SDKs get 429 with Retry-After and
              X-Sentry-Rate-Limits and stop sending until it passes. Leave the count empty for no limit.
            </p>
            <table>
              <tbody>
                {keys.map((k) => (
                  <tr key={k.id}>
                    <td>
                      {k.label} <span className="muted">{k.public_key.slice(0, 8)}…</span>
                    </td>
                    <td>
                      {manageKeys ? (
                        <KeyLimitForm
                          org={org.slug}
                          project={project.slug}
                          keyId={k.id}
                          count={k.rate_limit_count}
                          window={k.rate_limit_window_seconds}
                        />
                      ) : k.rate_limit_count !== null ? (
                        `${k.rate_limit_count} per ${k.rate_limit_window_seconds} s`
                      ) : (
                        "no limit"
                      )}
                    </td>
                  </tr>
                ))}
              </tbody>
            </table>
          </section>
          <section className="panel">
            <h2 style={{ marginTop: 0 }}>Per category</h2>
            {quotas.length === 0 ? (
              <p className="muted">No quotas: every category is accepted without a project limit.</p>
            ) : (
              <table data-testid="quotas">
                <tbody>
                  {quotas.map((q) => (
                    <tr key={q.category}>
                      <td>{q.category === "*" ? "all categories" : q.category}</td>
                      <td>
                        {q.limit_count} per {q.window_seconds} s
                      </td>
                      {manage && (
                        <td>
                          <RemoveQuotaForm org={org.slug} project={project.slug} category={q.category} />
                        </td>
                      )}
                    </tr>
                  ))}
                </tbody>
              </table>
            )}
            {manage && <QuotaForm org={org.slug} project={project.slug} categories={QUOTA_CATEGORIES} />}
          </section>
        </>
      )}
    </main>
  );
}
