"use client";

import { useActionState } from "react";
import { requestResetAction } from "../actions/password-reset";
import { FormMessages, Submit } from "../components/form-parts";
import type { FormState } from "../lib/forms";

export function ForgotPasswordForm() {
  const [state, action] = useActionState<FormState, FormData>(requestResetAction, {});
  return (
    <form action={action} className="panel" data-testid="forgot-form">
      <FormMessages state={state} />
      <p className="muted form-intro">Enter the email address you sign in with. We will send it a link to choose a new password.</p>
      <label>
        Email
        <input name="email" type="email" autoComplete="username" required defaultValue={state.values?.email} />
      </label>
      <Submit pendingText="Sending…">Send reset link</Submit>
    </form>
  );
}
