"use client";

import { useActionState } from "react";
import { resetPasswordAction } from "../../actions/password-reset";
import { FormMessages, Submit } from "../../components/form-parts";
import type { FormState } from "../../lib/forms";

export function ResetPasswordForm({ token, email }: { token: string; email: string }) {
  const [state, action] = useActionState<FormState, FormData>(resetPasswordAction, {});
  return (
    <form action={action} className="panel" data-testid="reset-form">
      <FormMessages state={state} />
      <input type="hidden" name="token" value={token} />
      {/* For password managers: the account this password belongs to. */}
      <input type="hidden" name="username" autoComplete="username" value={email} />
      <p className="muted form-intro">
        For <strong>{email}</strong>. Every session of this account is signed out; you are signed in here.
      </p>
      <label>
        New password <span className="hint">at least 8 characters</span>
        <input name="password" type="password" autoComplete="new-password" required minLength={8} />
      </label>
      <Submit pendingText="Saving…">Set new password</Submit>
    </form>
  );
}
