"use client";

import { useActionState } from "react";
import { createOrgTokenAction, createTokenAction, revokeOrgTokenAction, revokeTokenAction } from "../../../actions/tokens";
import { CopyButton } from "../../../components/copy-button";
import { FormMessages, Submit } from "../../../components/form-parts";
import type { FormState } from "../../../lib/forms";
import { DEFAULT_LEVELS, SCOPE_RESOURCES } from "./scope-resources";

/** The new token, once, with its notice; or the form's messages. */
function Created({ state }: { state: FormState }) {
  const token = state.error ? undefined : state.values?.token;
  if (!token) return <FormMessages state={state} />;
  return (
    <div className="notice new-token" role="status" data-testid="new-token">
      <p>{state.notice}</p>
      <p className="row">
        <code className="token-value">{token}</code>
        <CopyButton text={token} testId="copy-token" />
      </p>
    </div>
  );
}

/** The token's name; what was typed stays after an error. */
function NameField({ state, placeholder }: { state: FormState; placeholder: string }) {
  return (
    <label>
      Name
      <input name="name" required maxLength={100} placeholder={placeholder} defaultValue={state.error ? (state.values?.name ?? "") : ""} />
    </label>
  );
}

export function NewTokenForm({ org }: { org: string }) {
  const [state, action] = useActionState<FormState, FormData>(createTokenAction, {});
  return (
    <form action={action} className="token-form" data-testid="new-token-form">
      <input type="hidden" name="org" value={org} />
      <Created state={state} />
      <NameField state={state} placeholder="e.g. CI releases" />
      <fieldset className="scope-grid">
        <legend>Access</legend>
        {SCOPE_RESOURCES.map((r) => (
          <label key={r.id}>
            {r.label}
            <select name={`scope-${r.id}`} defaultValue={DEFAULT_LEVELS[r.id] ?? "none"}>
              <option value="none">No access</option>
              {r.levels.map((l) => (
                <option key={l.value} value={l.value}>
                  {l.label}
                </option>
              ))}
            </select>
          </label>
        ))}
      </fieldset>
      <label>
        Expires
        <select name="expiry" defaultValue="never">
          <option value="never">Never</option>
          <option value="30">In 30 days</option>
          <option value="90">In 90 days</option>
          <option value="365">In a year</option>
        </select>
      </label>
      <div className="row">
        <Submit pendingText="Creating…">Create token</Submit>
      </div>
    </form>
  );
}

/** Revoke, for a personal token or (`organization`) one of the organization's; a refusal shows under the button. */
export function RevokeTokenForm({
  org,
  tokenId,
  name,
  organization = false,
}: {
  org: string;
  tokenId: number;
  name: string;
  organization?: boolean;
}) {
  const [state, action] = useActionState<FormState, FormData>(organization ? revokeOrgTokenAction : revokeTokenAction, {});
  return (
    <form action={action} data-testid={organization ? "revoke-org-token-form" : "revoke-token-form"}>
      <input type="hidden" name="org" value={org} />
      <input type="hidden" name="tokenId" value={tokenId} />
      <button type="submit" className="danger" aria-label={`Revoke ${organization ? "organization token " : ""}${name}`}>
        Revoke
      </button>
      <FormMessages state={state} />
    </form>
  );
}

export function NewOrgTokenForm({ org }: { org: string }) {
  const [state, action] = useActionState<FormState, FormData>(createOrgTokenAction, {});
  return (
    <form action={action} className="token-form" data-testid="new-org-token-form">
      <input type="hidden" name="org" value={org} />
      <Created state={state} />
      <NameField state={state} placeholder="e.g. GitHub Actions" />
      <div className="row">
        <Submit pendingText="Creating…">Create organization token</Submit>
      </div>
    </form>
  );
}
