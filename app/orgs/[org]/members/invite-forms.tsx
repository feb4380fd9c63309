"use client";

import { useActionState } from "react";
import { inviteAction, resendInvitationAction, revokeInvitationAction } from "../../../actions/invitations";
import { CopyButton } from "../../../components/copy-button";
import { FormMessages, Submit } from "../../../components/form-parts";
import type { FormState } from "../../../lib/forms";

/** The form's notice and, when no email could go out, the link to pass on. */
function Sent({ state }: { state: FormState }) {
  const link = state.error ? undefined : state.values?.link;
  return (
    <>
      <FormMessages state={state} />
      {link && (
        <p className="row invite-link" data-testid="invite-link">
          <code className="token-value">{link}</code>
          <CopyButton text={link} testId="copy-invite-link" />
        </p>
      )}
    </>
  );
}

export function InviteForm({
  org,
  roles,
  teams,
}: {
  org: string;
  roles: { value: string; label: string; summary: string }[];
  teams: { slug: string; name: string }[];
}) {
  const [state, action] = useActionState<FormState, FormData>(inviteAction, {});
  return (
    <form action={action} className="invite-form" data-testid="invite-form">
      <input type="hidden" name="org" value={org} />
      <Sent state={state} />
      <label>
        Email
        <input
          name="email"
          type="email"
          required
          maxLength={254}
          placeholder="name@example.com"
          defaultValue={state.error ? state.values?.email : ""}
        />
      </label>
      <fieldset className="role-choice">
        <legend>Role</legend>
        {roles.map((r) => (
          <label key={r.value} className="choice">
            <input type="radio" name="role" value={r.value} defaultChecked={(state.error ? state.values?.role : "member") === r.value} />
            <span>
              <strong>{r.label}</strong> <span className="muted">— {r.summary}</span>
            </span>
          </label>
        ))}
      </fieldset>
      {teams.length > 0 && (
        <fieldset className="team-choice">
          <legend>Teams</legend>
          {teams.map((t) => (
            <label key={t.slug} className="choice">
              <input type="checkbox" name="team" value={t.slug} /> {t.name}
            </label>
          ))}
        </fieldset>
      )}
      <div className="row">
        <Submit pendingText="Inviting…">Send invitation</Submit>
      </div>
    </form>
  );
}

/** Resend (a new link) and revoke, side by side for one pending invitation. */
export function InvitationButtons({ org, id, email }: { org: string; id: number; email: string }) {
  const [resent, resend] = useActionState<FormState, FormData>(resendInvitationAction, {});
  const [revoked, revoke] = useActionState<FormState, FormData>(revokeInvitationAction, {});
  return (
    <div className="invitation-buttons">
      <div className="row">
        <form action={resend}>
          <input type="hidden" name="org" value={org} />
          <input type="hidden" name="invitation" value={id} />
          <button type="submit" aria-label={`Resend the invitation to ${email}`}>
            Resend
          </button>
        </form>
        <form action={revoke}>
          <input type="hidden" name="org" value={org} />
          <input type="hidden" name="invitation" value={id} />
          <button type="submit" className="danger" aria-label={`Revoke the invitation to ${email}`}>
            Revoke
          </button>
        </form>
      </div>
      <Sent state={resent} />
      <FormMessages state={revoked} />
    </div>
  );
}
