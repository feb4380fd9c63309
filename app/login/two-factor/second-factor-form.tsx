"use client";

import { useActionState } from "react";
import { secondFactorAction } from "../../actions/two-factor";
import { FormMessages, Submit } from "../../components/form-parts";
import type { FormState } from "../../lib/forms";

export function SecondFactorForm({ next }: { next: string }) {
  const [state, action] = useActionState<FormState, FormData>(secondFactorAction, {});
  return (
    <form action={action} className="panel" data-testid="second-factor-form">
      <FormMessages state={state} />
      <input type="hidden" name="next" value={next} />
      <label>
        Code
        <span className="hint">The 6-digit code your authenticator app shows for Telltale, or one of your recovery codes.</span>
        <input name="code" autoComplete="one-time-code" autoCapitalize="none" spellCheck={false} required maxLength={64} autoFocus />
      </label>
      <Submit pendingText="Checking…">Continue</Submit>
    </form>
  );
}
