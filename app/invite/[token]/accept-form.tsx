"use client";

import { useActionState } from "react";
import { acceptInvitationAction } from "../../actions/invitations";
import { logoutAction } from "../../actions/session";
import { FormMessages, Submit } from "../../components/form-parts";
import type { FormState } from "../../lib/forms";

/** Joining as the signed-in user, or (`newAccount`) creating the invited address's account. */
export function AcceptForm({ token, email, newAccount }: { token: string; email: string; newAccount: boolean }) {
  const [state, action] = useActionState<FormState, FormData>(acceptInvitationAction, {});
  return (
    <form action={action} className="panel" data-testid="accept-invitation">
      <FormMessages state={state} />
      <input type="hidden" name="token" value={token} />
      {newAccount && (
        <>
          <label>
            Email
            <input value={email} readOnly autoComplete="username" />
          </label>
          <label>
            Your name
            <input name="name" autoComplete="name" maxLength={200} defaultValue={state.values?.name} />
          </label>
          <label>
            Choose a password
            <input name="password" type="password" autoComplete="new-password" minLength={8} required />
          </label>
        </>
      )}
      <Submit pendingText="Joining…">{newAccount ? "Create account and join" : "Join the organization"}</Submit>
    </form>
  );
}

/** Signs out and comes back to `next`, where the invited address can sign in or create its account. */
export function SignOutTo({ next, label }: { next: string; label: string }) {
  const [, action] = useActionState<FormState, FormData>(logoutAction, {});
  return (
    <form action={action}>
      <input type="hidden" name="next" value={next} />
      <Submit pendingText="Signing out…">{label}</Submit>
    </form>
  );
}
