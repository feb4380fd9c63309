"use client";

import { useActionState } from "react";
import { setupAction } from "../actions/session";
import { FormMessages, submitKeepingValues } from "../components/form-parts";
import type { FormState } from "../lib/forms";

/** A field's message from the server, tied to its input by `aria-describedby`. */
function FieldError({ name, state }: { name: string; state: FormState }) {
  const message = state.fieldErrors?.[name];
  return message ? (
    <span className="field-error" id={`${name}-error`} data-testid={`${name}-error`}>
      {message}
    </span>
  ) : null;
}

const invalid = (name: string, state: FormState) =>
  state.fieldErrors?.[name] ? { "aria-invalid": true, "aria-describedby": `${name}-error` } : {};

/**
 * The first-run form. The server checks every field and answers with all problems at once, so
 * the browser's own one-at-a-time validation is off (`noValidate`). What was typed stays in the
 * inputs, the password included, without the server ever sending it back: the form submits
 * through `onSubmit` in a transition, which React does not follow with a form reset (it resets
 * only forms whose `action` it ran: https://react.dev/reference/react-dom/components/form).
 */
export function SetupForm() {
  const [state, action, pending] = useActionState<FormState, FormData>(setupAction, {});
  return (
    <form action={action} onSubmit={submitKeepingValues(action)} className="panel" noValidate>
      <FormMessages state={state} />
      <label>
        Email
        <input name="email" type="email" autoComplete="email" required {...invalid("email", state)} />
        <FieldError name="email" state={state} />
      </label>
      <label>
        Name <span className="hint">optional</span>
        <input name="name" autoComplete="name" {...invalid("name", state)} />
        <FieldError name="name" state={state} />
      </label>
      <label>
        Password <span className="hint">at least 8 characters</span>
        <input name="password" type="password" autoComplete="new-password" required minLength={8} {...invalid("password", state)} />
        <FieldError name="password" state={state} />
      </label>
      <label>
        Organization name <span className="hint">as people will see it, e.g. Acme Inc.</span>
        <input name="orgName" autoComplete="organization" required {...invalid("orgName", state)} />
        <FieldError name="orgName" state={state} />
      </label>
      <label>
        Organization slug <span className="hint">lowercase letters, digits and dashes, e.g. acme</span>
        <input name="orgSlug" required pattern="[a-z0-9][a-z0-9_\-]*" {...invalid("orgSlug", state)} />
        <FieldError name="orgSlug" state={state} />
      </label>
      <button type="submit" className="primary" disabled={pending}>
        {pending ? "Creating…" : "Create admin account"}
      </button>
    </form>
  );
}
