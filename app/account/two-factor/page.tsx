import Link from "next/link";
import { offerEnrolment } from "@/src/core/twofactor/enrol";
import { twoFactorStatus } from "@/src/core/twofactor/manage";
import { RECOVERY_CODE_COUNT } from "@/src/core/twofactor/recovery-codes";
import { When } from "../../components/when";
import { safeNext } from "../../lib/auth";
import { ctx } from "../../lib/app-runtime";
import { loadUser } from "../../lib/loaders";
import { qrDataUrl } from "../../lib/second-factor";
import { DisableForm, EnrolForm, RenewCodesForm } from "./two-factor-forms";
import "./two-factor.css";

export const dynamic = "force-dynamic";
export const metadata = { title: "Two-factor sign-in" };

/** Base32 in groups of four, as apps that take a typed key show it. */
const grouped = (secret: string) => secret.match(/.{1,4}/g)?.join(" ") ?? secret;

/**
 * Turning two-factor sign-in on (a QR code for the app, confirmed by a code; recovery codes shown
 * once) and, once on, renewing recovery codes or turning it off. Organizations that require it
 * send their members here (`?next=` is where they were going).
 */
export default async function TwoFactorPage({ searchParams }: { searchParams: Promise<{ next?: string }> }) {
  const user = await loadUser("twofactor:write", "/account/two-factor");
  const rawNext = (await searchParams).next;
  const next = rawNext ? safeNext(rawNext) : "/account/two-factor";
  const status = await twoFactorStatus(ctx(), user.id);
  if (status) {
    return (
      <main>
        <h1>Two-factor sign-in</h1>
        <div className="panel">
          <table className="kv account-facts" data-testid="two-factor-status">
            <tbody>
              <tr>
                <th>Status</th>
                <td>
                  <span className="badge on">On</span> since <When ms={status.since} />
                </td>
              </tr>
              <tr>
                <th>Recovery codes</th>
                <td>
                  {status.recoveryCodesLeft} of {RECOVERY_CODE_COUNT} left
                </td>
              </tr>
            </tbody>
          </table>
        </div>
        <h2>Recovery codes</h2>
        <div className="panel">
          <p className="muted form-intro">Lost them, or used most of them? Get a new set.</p>
          <RenewCodesForm />
        </div>
        <h2>Turn off</h2>
        <div className="panel">
          <p className="muted form-intro">
            Signing in will take your password alone. Organizations that require two-factor will send you back here.
          </p>
          <DisableForm email={user.email} />
        </div>
        <p>
          <Link href="/account">Back to your account</Link>
        </p>
      </main>
    );
  }
  const offer = offerEnrolment(ctx(), user);
  return (
    <main>
      <h1>Two-factor sign-in</h1>
      {rawNext && (
        <p className="notice" data-testid="two-factor-required">
          An organization you belong to requires two-factor sign-in. Turn it on to continue.
        </p>
      )}
      <div className="panel">
        <p className="form-intro">
          After your password, Telltale will ask for a code from an authenticator app on your phone (any app that reads TOTP QR codes:
          1Password, Google Authenticator, Authy, Bitwarden…).
        </p>
        <div className="two-factor-steps">
          <img className="two-factor-qr" src={await qrDataUrl(offer.uri)} alt="QR code to scan with your authenticator app" />
          <div>
            <ol>
              <li>Scan the QR code with your authenticator app.</li>
              <li>
                Cannot scan? Enter this key in the app instead:{" "}
                <code className="two-factor-key" data-testid="totp-secret">
                  {grouped(offer.secret)}
                </code>
              </li>
              <li>Enter the code the app shows.</li>
            </ol>
            <EnrolForm secret={offer.secret} next={next} />
          </div>
        </div>
      </div>
    </main>
  );
}
