import Link from "next/link";
import { ctx } from "../lib/app-runtime";
import { ForgotPasswordForm } from "./forgot-form";

export const dynamic = "force-dynamic";
export const metadata = { title: "Forgot your password?" };

/** Public: whoever forgot their password has no session. Without SMTP it says whom to ask. */
export default function ForgotPasswordPage() {
  return (
    <main className="narrow">
      <h1>Forgot your password?</h1>
      {ctx().mailer ? (
        <ForgotPasswordForm />
      ) : (
        <div className="panel message-panel" data-testid="email-off">
          <p>Email is not set up on this server, so no reset link can be sent.</p>
          <p className="muted">
            Ask an administrator to set a new password for you: they can run <code>telltale user set-password</code>, or send you a reset
            link from the Users page.
          </p>
        </div>
      )}
      <p>
        <Link href="/login">Back to sign in</Link>
      </p>
    </main>
  );
}
