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

export function NewTokenForm({ org }: { org: string }) {
  const [state, action] = useActionState<FormState, FormData>(createTokenAction, {});
  return (
    <form action={action} className="token-form" data-testid="new-token-form">
      <input type="hidden" name="org" value={org} />
      <Created state={state} />
      <label>
        Name
        <input
          name="name"
          required
          maxLength={100}
          placeholder="e.g. CI releases"
          defaultValue={state.error ? (state.values?.name ?? "") : ""}
        />
      </label>
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

export function RevokeTokenForm({ org, tokenId, name }: { org: string; tokenId: number; name: string }) {
  const [state, action] = useActionState<FormState, FormData>(revokeTokenAction, {});
  return (
    <form action={action} data-testid="revoke-token-form">
      <input type="hidden" name="org" value={org} />
      <input type="hidden" name="tokenId" value={tokenId} />
      <button type="submit" className="danger" aria-label={`Revoke ${name}`}>
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
      <label>
        Name
        <input
          name="name"
          required
          maxLength={100}
          placeholder="e.g. GitHub Actions"
          defaultValue={state.error ? (state.values?.name ?? "") : ""}
        />
      </label>
      <div className="row">
        <Submit pendingText="Creating…">Create organization token</Submit>
      </div>
    </form>
  );
}

export function RevokeOrgTokenForm({ org, tokenId, name }: { org: string; tokenId: number; name: string }) {
  const [state, action] = useActionState<FormState, FormData>(revokeOrgTokenAction, {});
  return (
    <form action={action} data-testid="revoke-org-token-form">
      <input type="hidden" name="org" value={org} />
      <input type="hidden" name="tokenId" value={tokenId} />
      <button type="submit" className="danger" aria-label={`Revoke organization token ${name}`}>
        Revoke
      </button>
      <FormMessages state={state} />
    </form>
  );
}
