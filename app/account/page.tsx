import { cookies } from "next/headers";
import { listSessions } from "@/src/core/accounts/sessions";
import { twoFactorStatus } from "@/src/core/twofactor/manage";
import Link from "next/link";
import { SESSION_COOKIE } from "@/src/server/cookies";
import { When } from "../components/when";
import { ctx } from "../lib/app-runtime";
import { loadUser } from "../lib/loaders";
import { ChangePasswordForm, RevokeSessionForm, SignOutEverywhereForm } from "./account-forms";
import { NotificationsSection } from "./notifications-section";

export const dynamic = "force-dynamic";
export const metadata = { title: "Account" };

/** The signed-in user's own account: who they are, their password, where they are signed in. */
export default async function AccountPage() {
  const user = await loadUser("account:write", "/account");
  const sessions = await listSessions(ctx(), user.id, (await cookies()).get(SESSION_COOKIE)?.value);
  const twoFactor = await twoFactorStatus(ctx(), user.id);
  return (
    <main>
      <h1>Account</h1>
      <div className="panel">
        <table className="kv account-facts">
          <tbody>
            <tr>
              <th>Email</th>
              <td>{user.email}</td>
            </tr>
            <tr>
              <th>Name</th>
              <td>{user.name || <span className="muted">not set</span>}</td>
            </tr>
            <tr>
              <th>Member since</th>
              <td>
                <When ms={user.created_at} />
              </td>
            </tr>
            {user.is_superuser === 1 && (
              <tr>
                <th>Role</th>
                <td>
                  <span className="badge">superuser</span>
                </td>
              </tr>
            )}
          </tbody>
        </table>
      </div>

      <NotificationsSection user={user} />

      <h2>Change password</h2>
      <div className="panel">
        <ChangePasswordForm email={user.email} />
      </div>

      <h2>Two-factor sign-in</h2>
      <div className="panel row" data-testid="two-factor-summary">
        {twoFactor ? (
          <span>
            <span className="badge on">On</span> · {twoFactor.recoveryCodesLeft} recovery codes left
          </span>
        ) : (
          <span className="muted">Off: signing in takes your password alone.</span>
        )}
        <Link href="/account/two-factor">{twoFactor ? "Manage" : "Turn on"}</Link>
      </div>

      <h2>Sessions</h2>
      <div className="panel">
        <p className="muted form-intro">
          Where this account is signed in. Sign out a session you do not recognise, then change your password.
        </p>
        <table data-testid="sessions" className="account-table">
          <thead>
            <tr>
              <th>Device</th>
              <th className="narrow-hide">IP address</th>
              <th className="narrow-hide">Signed in</th>
              <th>Last active</th>
              <th aria-label="Actions" />
            </tr>
          </thead>
          <tbody>
            {sessions.map((s) => (
              <tr key={s.id} data-testid="session-row" data-current={s.current ? "true" : undefined}>
                <td>
                  {s.browser}
                  <div className="muted">{s.device}</div>
                </td>
                <td className="narrow-hide">
                  <code>{s.ip}</code>
                </td>
                <td className="narrow-hide">
                  <When ms={s.signedInAt} />
                </td>
                <td>
                  <When ms={s.lastActiveAt} />
                </td>
                <td>
                  {s.current ? <span className="badge on">This device</span> : <RevokeSessionForm session={s.id} browser={s.browser} />}
                </td>
              </tr>
            ))}
          </tbody>
        </table>
        <div className="row session-actions">
          <SignOutEverywhereForm />
        </div>
      </div>
    </main>
  );
}
