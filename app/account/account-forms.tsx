"use client";

import { useActionState } from "react";
import { changePasswordAction, revokeSessionAction, signOutEverywhereAction } from "../actions/account";
import { ButtonForm, FormMessages, Submit } from "../components/form-parts";
import type { FormState } from "../lib/forms";

export function ChangePasswordForm({ email }: { email: string }) {
  const [state, action] = useActionState<FormState, FormData>(changePasswordAction, {});
  return (
    <form action={action} data-testid="change-password-form" className="account-form">
      <FormMessages state={state} />
      <input type="hidden" name="username" autoComplete="username" value={email} />
      <label>
        Current password
        <input name="current" type="password" autoComplete="current-password" required />
      </label>
      <label>
        New password <span className="hint">at least 8 characters; your other sessions are signed out</span>
        <input name="password" type="password" autoComplete="new-password" required minLength={8} />
      </label>
      <Submit pendingText="Changing…">Change password</Submit>
    </form>
  );
}

export function RevokeSessionForm({ session, browser }: { session: string; browser: string }) {
  return (
    <ButtonForm
      action={revokeSessionAction}
      hidden={{ session }}
      label="Sign out"
      pendingLabel="Signing out…"
      ariaLabel={`Sign out the session in ${browser}`}
      danger
      testId="revoke-session-form"
    />
  );
}

export function SignOutEverywhereForm() {
  const [state, action, pending] = useActionState<FormState, FormData>(signOutEverywhereAction, {});
  return (
    <form action={action} className="sign-out-everywhere">
      <FormMessages state={state} />
      <button type="submit" className="danger" disabled={pending}>
        {pending ? "Signing out…" : "Sign out everywhere"}
      </button>
      <span className="muted">Every session ends, this one included.</span>
    </form>
  );
}
