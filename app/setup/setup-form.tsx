"use client";

import { useActionState } from "react";
import { setupAction } from "../actions/session";
import { FormMessages, Submit } from "../components/form-parts";
import type { FormState } from "../lib/forms";

export function SetupForm() {
  const [state, action] = useActionState<FormState, FormData>(setupAction, {});
  const v = state.values ?? {};
  return (
    <form action={action} className="panel">
      <FormMessages state={state} />
      <label>
        Email
        <input name="email" type="email" autoComplete="email" required defaultValue={v.email} />
      </label>
      <label>
        Name <span className="hint">optional</span>
        <input name="name" autoComplete="name" defaultValue={v.name} />
      </label>
      <label>
        Password <span className="hint">at least 8 characters</span>
        <input name="password" type="password" autoComplete="new-password" required minLength={8} />
      </label>
      <label>
        Organization slug <span className="hint">lowercase letters, digits and dashes, e.g. acme</span>
        <input name="orgSlug" required pattern="[a-z0-9][a-z0-9_\-]*" defaultValue={v.orgSlug} />
      </label>
      <Submit pendingText="Creating…">Create admin account</Submit>
    </form>
  );
}
