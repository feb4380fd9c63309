import { ROLE_INFO } from "@/src/core/orgs/roles";
import { NO_SECRET_KEY, redirectUri, ssoSettings } from "@/src/core/sso/configure";
import { removeSsoAction, requireSsoAction, saveSsoAction } from "../../../../actions/sso";
import { ActionForm } from "../../../../components/action-form";
import { CopyButton } from "../../../../components/copy-button";
import { PageCrumbs } from "../../../../components/shell/page-crumbs";
import { When } from "../../../../components/when";
import { ctx } from "../../../../lib/app-runtime";
import { loadOrg } from "../../../../lib/loaders";
import "../../access.css";

export const metadata = { title: "Single sign-on" };

const DEFAULT_ROLES = ["member", "admin", "manager"] as const;

/** The organization's OpenID provider: owners only (`sso:write`). */
export default async function SsoSettingsPage({ params }: { params: Promise<{ org: string }> }) {
  const { org: slug } = await params;
  const access = await loadOrg("sso:write", slug, `/orgs/${slug}/settings/sso`);
  const { org } = access;
  const current = await ssoSettings(ctx(), access);
  const teams = await ctx().directory.teams(org.id);
  const callback = redirectUri(ctx(), org.slug);
  const signInLink = `${ctx().publicUrl}/login?sso=${org.slug}`;
  return (
    <main>
      <PageCrumbs
        items={[
          { label: org.name, href: `/orgs/${org.slug}` },
          { label: "Settings", href: `/orgs/${org.slug}/settings` },
          { label: "Single sign-on" },
        ]}
      />
      <h1>Single sign-on</h1>
      {!ctx().secrets.sealing && (
        <p className="error" role="alert">
          {NO_SECRET_KEY}
        </p>
      )}
      <section className="panel">
        <h2 className="panel-title">OpenID Connect provider</h2>
        <p className="muted">
          Register Telltale at your provider as a web application (confidential client, authorization code flow) with this redirect URI,
          then enter the issuer URL and the client id and secret it gives.
        </p>
        <code className="dsn" data-testid="sso-redirect-uri">
          {callback}
        </code>
        <p>
          <CopyButton text={callback} label="Copy the redirect URI" />
        </p>
        <ActionForm
          action={saveSsoAction}
          hidden={{ org: org.slug }}
          submit="Save and check the provider"
          className="stack-form"
          testId="sso-form"
          fields={[
            {
              name: "issuer",
              label: "Issuer URL",
              defaultValue: current?.issuer ?? "",
              placeholder: "https://accounts.example.com",
              required: true,
              maxLength: 512,
              hint: "Telltale reads the provider's endpoints from its /.well-known/openid-configuration.",
            },
            { name: "clientId", label: "Client id", defaultValue: current?.clientId ?? "", required: true, maxLength: 512 },
          ]}
        >
          <label>
            Client secret
            <input
              name="clientSecret"
              type="password"
              autoComplete="off"
              maxLength={1024}
              required={!current?.secretReadable}
              placeholder={current?.secretReadable ? "Stored encrypted: leave empty to keep it" : ""}
            />
          </label>
          <label>
            Role of new members
            <select name="defaultRole" defaultValue={current?.defaultRole ?? "member"}>
              {DEFAULT_ROLES.map((role) => (
                <option key={role} value={role}>
                  {ROLE_INFO[role].label}
                </option>
              ))}
            </select>
          </label>
          <label>
            Team of new members
            <select name="defaultTeam" defaultValue={current?.defaultTeamSlug ?? ""}>
              <option value="">The default team</option>
              {teams
                .filter((t) => !t.team.isDefault)
                .map((t) => (
                  <option key={t.team.id} value={t.team.slug}>
                    {t.team.name}
                  </option>
                ))}
            </select>
          </label>
        </ActionForm>
      </section>
      {current && (
        <>
          <section className="panel" data-testid="sso-discovered">
            <h2 className="panel-title">Discovered endpoints</h2>
            <table>
              <tbody>
                {[
                  ["Issuer", current.issuer],
                  ["Authorization", current.endpoints.authorization],
                  ["Token", current.endpoints.token],
                  ["Keys (JWKS)", current.endpoints.jwks],
                  ["Sign-out", current.endpoints.endSession ?? "not offered"],
                ].map(([label, value]) => (
                  <tr key={label}>
                    <th scope="row">{label}</th>
                    <td style={{ wordBreak: "break-all" }}>{value}</td>
                  </tr>
                ))}
                <tr>
                  <th scope="row">Checked</th>
                  <td>
                    <When ms={current.updatedAt} />
                  </td>
                </tr>
              </tbody>
            </table>
            <p className="muted">Members sign in at</p>
            <code className="dsn">{signInLink}</code>
            <p>
              <CopyButton text={signInLink} label="Copy the sign-in link" />
            </p>
          </section>
          <section className="panel">
            <h2 className="panel-title">Require single sign-on</h2>
            <ActionForm action={requireSsoAction} hidden={{ org: org.slug }} submit="Save" className="stack-form" testId="require-sso-form">
              <label className="switch-row">
                <input type="checkbox" name="required" value="1" defaultChecked={current.requireSso} />
                <span>
                  Members must sign in through the provider.
                  <span className="muted-small" style={{ display: "block" }}>
                    Password sign-in is refused to every member but owners, who keep their password to reach this page if the provider
                    fails. Currently {current.requireSso ? "on" : "off"}.
                  </span>
                </span>
              </label>
            </ActionForm>
          </section>
          <section className="panel">
            <h2 className="panel-title">Remove the provider</h2>
            <p className="muted">Members keep their memberships; those without a password then reset one by email.</p>
            <ActionForm
              action={removeSsoAction}
              hidden={{ org: org.slug }}
              submit="Remove single sign-on"
              danger
              testId="remove-sso-form"
            />
          </section>
        </>
      )}
    </main>
  );
}
