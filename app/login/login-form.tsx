"use client";

import { useActionState } from "react";
import { loginAction } from "../actions/session";
import { FormMessages, Submit } from "../components/form-parts";
import type { FormState } from "../lib/forms";

export function LoginForm({ next }: { next: string }) {
  const [state, action] = useActionState<FormState, FormData>(loginAction, {});
  return (
    <form action={action} className="panel">
      <FormMessages state={state} />
      <input type="hidden" name="next" value={next} />
      <label>
        Email
        <input name="email" type="email" autoComplete="username" required defaultValue={state.values?.email} />
      </label>
      <label>
        Password
        <input name="password" type="password" autoComplete="current-password" required />
      </label>
      <Submit pendingText="Signing in…">Sign in</Submit>
    </form>
  );
}
