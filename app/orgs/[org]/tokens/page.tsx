import { roleAllows } from "@/src/core/permissions/table";
import { listOrgTokens, listTokens, ORG_TOKEN_SCOPES, type TokenInfo } from "@/src/core/tokens/tokens";
import { PageCrumbs } from "../../../components/shell/page-crumbs";
import { When } from "../../../components/when";
import { ctx } from "../../../lib/app-runtime";
import { exactUtc } from "../../../lib/dates";
import { loadOrg } from "../../../lib/loaders";
import { NewOrgTokenForm, NewTokenForm, RevokeTokenForm } from "./token-forms";

export const metadata = { title: "API tokens" };

function state(t: TokenInfo, now: number): "active" | "expired" | "revoked" {
  if (t.revokedAt !== null) return "revoked";
  return t.expiresAt !== null && t.expiresAt <= now ? "expired" : "active";
}

/** The token's name and the characters that identify it (never the token). */
function NameCell({ token }: { token: TokenInfo }) {
  return (
    <td>
      {token.name}
      <div className="muted">
        <code>{token.prefix.includes("…") ? token.prefix : `${token.prefix}…`}</code>
      </div>
    </td>
  );
}

/** Created and last used, as people read times. */
function UseCells({ token }: { token: TokenInfo }) {
  return (
    <>
      <td>
        <When ms={token.createdAt} />
      </td>
      <td>{token.lastUsedAt === null ? <span className="muted">never</span> : <When ms={token.lastUsedAt} />}</td>
    </>
  );
}

/** Revoke while the token works; afterwards why it no longer does. */
function StateCell({ token, now, org, organization = false }: { token: TokenInfo; now: number; org: string; organization?: boolean }) {
  const s = state(token, now);
  return (
    <td>
      {s === "active" ? (
        <RevokeTokenForm org={org} tokenId={token.id} name={token.name} organization={organization} />
      ) : (
        <span className="badge">{s}</span>
      )}
    </td>
  );
}

const DAY = new Intl.DateTimeFormat("en-GB", { dateStyle: "medium", timeZone: "UTC" });

/**
 * The signed-in user's personal API tokens: they act as the user in the web API and
 * sentry-cli, limited by their scopes and by the user's role in each organization. Shown inside
 * the organization the user came from; the tokens themselves are the user's, not the organization's.
 */
export default async function TokensPage({ params }: { params: Promise<{ org: string }> }) {
  const { org: slug } = await params;
  const { org, user, role } = await loadOrg("org:read", slug, `/orgs/${slug}/tokens`);
  const tokens = await listTokens(ctx(), user.id);
  // Organization tokens are for owners and admins (the permission table's org-token:write).
  const orgTokens = roleAllows(role, "org-token:write") ? await listOrgTokens(ctx(), org.id) : null;
  const now = Date.now();
  return (
    <main>
      <PageCrumbs items={[{ label: org.name, href: `/orgs/${org.slug}` }, { label: "API tokens" }]} />
      <h1>API tokens</h1>
      <p className="muted">
        Personal tokens act as you in the web API and in sentry-cli (<code>Authorization: Bearer</code>). A token may do no more than its
        access allows, nor more than your role in each organization.
      </p>
      <section className="panel token-panel">
        <h2>New token</h2>
        <NewTokenForm org={org.slug} />
      </section>
      <section className="panel token-panel">
        <h2>Your tokens</h2>
        {tokens.length === 0 ? (
          <p className="muted">No tokens yet.</p>
        ) : (
          <div className="table-scroll">
            <table data-testid="tokens">
              <thead>
                <tr>
                  <th>Name</th>
                  <th>Access</th>
                  <th>Created</th>
                  <th>Last used</th>
                  <th>Expires</th>
                  <th>State</th>
                </tr>
              </thead>
              <tbody>
                {tokens.map((t) => (
                  <tr key={t.id} data-testid="token-row">
                    <NameCell token={t} />
                    <td className="scopes">{t.scopes === null ? "everything your role allows" : t.scopes.join(", ")}</td>
                    <UseCells token={t} />
                    <td>
                      {t.expiresAt === null ? (
                        <span className="muted">never</span>
                      ) : (
                        <time title={exactUtc(t.expiresAt)}>{DAY.format(t.expiresAt)}</time>
                      )}
                    </td>
                    <StateCell token={t} now={now} org={org.slug} />
                  </tr>
                ))}
              </tbody>
            </table>
          </div>
        )}
      </section>
      {orgTokens && (
        <section className="panel token-panel" data-testid="org-tokens">
          <h2>Organization tokens</h2>
          <p className="muted">
            For CI: in Sentry&apos;s <code>sntrys_</code> format, they carry this server&apos;s URL and the organization, so sentry-cli
            needs no <code>--url</code> or <code>--org</code>. They work in {org.name} only, with their creator&apos;s membership. Access:{" "}
            {ORG_TOKEN_SCOPES.join(", ")}.
          </p>
          <NewOrgTokenForm org={org.slug} />
          {orgTokens.length > 0 && (
            <div className="table-scroll">
              <table>
                <thead>
                  <tr>
                    <th>Name</th>
                    <th>Created by</th>
                    <th>Created</th>
                    <th>Last used</th>
                    <th>State</th>
                  </tr>
                </thead>
                <tbody>
                  {orgTokens.map((t) => (
                    <tr key={t.id} data-testid="org-token-row">
                      <NameCell token={t} />
                      <td>{t.createdBy}</td>
                      <UseCells token={t} />
                      <StateCell token={t} now={now} org={org.slug} organization />
                    </tr>
                  ))}
                </tbody>
              </table>
            </div>
          )}
        </section>
      )}
    </main>
  );
}
