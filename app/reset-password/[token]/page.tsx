import Link from "next/link";
import { RESET_LINK_INVALID, userForResetToken } from "@/src/core/accounts/password-reset";
import { ctx } from "../../lib/app-runtime";
import { ResetPasswordForm } from "./reset-form";

export const dynamic = "force-dynamic";
export const metadata = { title: "Choose a new password" };

/** Public: the token in the link is the credential. A used or expired one says so. */
export default async function ResetPasswordPage({ params }: { params: Promise<{ token: string }> }) {
  const { token } = await params;
  const user = await userForResetToken(ctx(), token);
  return (
    <main className="narrow">
      <h1>{user ? "Choose a new password" : "This link no longer works"}</h1>
      {user ? (
        <ResetPasswordForm token={token} email={user.email} />
      ) : (
        <div className="panel message-panel" data-testid="reset-invalid">
          <p>{RESET_LINK_INVALID}</p>
          <p>
            <Link href="/forgot-password">Send a new link</Link>
          </p>
        </div>
      )}
    </main>
  );
}
