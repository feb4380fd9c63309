"use client";

import { useActionState } from "react";
import { startSsoAction } from "../actions/sso";
import { FormMessages, Submit } from "../components/form-parts";
import type { FormState } from "../lib/forms";

/**
 * Single sign-on through an organization's OpenID provider: one button when the page was opened
 * for an organization (`/login?sso=acme`), otherwise a field for the organization's slug.
 */
export function SsoForm({ next, org }: { next: string; org: { slug: string; name: string } | null }) {
  const [state, action] = useActionState<FormState, FormData>(startSsoAction, {});
  return (
    <form action={action} className="panel" data-testid="sso-form">
      <FormMessages state={state} />
      <input type="hidden" name="next" value={next} />
      {org ? (
        <input type="hidden" name="org" value={org.slug} />
      ) : (
        <label>
          Organization
          <input name="org" required maxLength={64} placeholder="acme" defaultValue={state.values?.org} autoCapitalize="none" />
          <span className="muted-small">The short name in your organization&apos;s Telltale address, /orgs/acme.</span>
        </label>
      )}
      <Submit pendingText="Redirecting…">{org ? `Sign in with ${org.name} SSO` : "Continue with single sign-on"}</Submit>
    </form>
  );
}
