"use client";

import { useActionState } from "react";
import { createUserAction, deleteUserAction, resetLinkAction, setSuperuserAction } from "../../actions/users";
import { CopyButton } from "../../components/copy-button";
import { FormMessages, Submit } from "../../components/form-parts";
import type { FormState } from "../../lib/forms";

export function NewUserForm() {
  const [state, action] = useActionState<FormState, FormData>(createUserAction, {});
  const kept = (name: string) => (state.error ? (state.values?.[name] ?? "") : "");
  return (
    <form action={action} data-testid="new-user-form" className="account-form">
      <FormMessages state={state} />
      <label>
        Email
        <input name="email" type="email" autoComplete="off" required defaultValue={kept("email")} key={`email-${state.notice ?? ""}`} />
      </label>
      <label>
        Name <span className="hint">optional</span>
        <input name="name" autoComplete="off" defaultValue={kept("name")} key={`name-${state.notice ?? ""}`} />
      </label>
      <label>
        Password <span className="hint">at least 8 characters; they can change it on their account page</span>
        <input name="password" type="password" autoComplete="new-password" required minLength={8} />
      </label>
      <label className="checkbox">
        <input name="superuser" type="checkbox" /> Superuser <span className="hint">may manage every user and organization</span>
      </label>
      <Submit pendingText="Creating…">Create user</Submit>
    </form>
  );
}

/** A user's row buttons, each answering under them; a refusal (the last superuser, oneself) shows there too. */
export function UserActions({
  userId,
  email,
  superuser,
  self,
  emailOn,
}: {
  userId: number;
  email: string;
  superuser: boolean;
  self: boolean;
  emailOn: boolean;
}) {
  const [flagged, flag, flagging] = useActionState<FormState, FormData>(setSuperuserAction, {});
  const [reset, sendReset, resetting] = useActionState<FormState, FormData>(resetLinkAction, {});
  const [deleted, remove, deleting] = useActionState<FormState, FormData>(deleteUserAction, {});
  const busy = flagging || resetting || deleting;
  const link = reset.error ? undefined : reset.values?.link;
  return (
    <div className="user-actions">
      <div className="row">
        {!(self && superuser) && (
          <form action={flag}>
            <input type="hidden" name="userId" value={userId} />
            <input type="hidden" name="superuser" value={superuser ? "0" : "1"} />
            <button type="submit" disabled={busy} aria-label={`${superuser ? "Remove superuser from" : "Make superuser"} ${email}`}>
              {superuser ? "Remove superuser" : "Make superuser"}
            </button>
          </form>
        )}
        <form action={sendReset}>
          <input type="hidden" name="userId" value={userId} />
          <button type="submit" disabled={busy} aria-label={`${emailOn ? "Send" : "Make"} a reset link for ${email}`}>
            {emailOn ? "Send reset link" : "Reset link"}
          </button>
        </form>
        {!self && (
          <form
            action={remove}
            onSubmit={(e) => {
              if (!window.confirm(`Delete ${email}? Their sessions, tokens and memberships go too.`)) e.preventDefault();
            }}
          >
            <input type="hidden" name="userId" value={userId} />
            <button type="submit" className="danger" disabled={busy} aria-label={`Delete ${email}`}>
              Delete
            </button>
          </form>
        )}
      </div>
      <FormMessages state={flagged} />
      <FormMessages state={deleted} />
      {link ? (
        <div className="notice" role="status" data-testid="reset-link">
          <p>{reset.notice}</p>
          <p className="row">
            <code className="token-value">{link}</code>
            <CopyButton text={link} testId="copy-reset-link" />
          </p>
        </div>
      ) : (
        <FormMessages state={reset} />
      )}
    </div>
  );
}
