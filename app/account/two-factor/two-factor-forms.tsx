"use client";

import { useActionState } from "react";
import { confirmEnrolmentAction, disableTwoFactorAction, renewRecoveryCodesAction } from "../../actions/two-factor";
import { CopyButton } from "../../components/copy-button";
import { FormMessages, Submit } from "../../components/form-parts";
import type { FormState } from "../../lib/forms";

/** Recovery codes, shown once: the page does not have them again. */
function RecoveryCodes({ codes, next }: { codes: string[]; next: string }) {
  return (
    <div data-testid="recovery-codes">
      <p>
        <strong>Save these recovery codes now.</strong> Each signs you in once without your app, if you lose it. They are not shown again.
      </p>
      <ol className="recovery-codes">
        {codes.map((code) => (
          <li key={code}>
            <code>{code}</code>
          </li>
        ))}
      </ol>
      <div className="row recovery-actions">
        <CopyButton text={codes.join("\n")} label="Copy codes" />
        {/* A full page load: the router's cache would show this page as it was before two-factor was on. */}
        <a className="button primary" href={next} data-testid="recovery-done">
          I saved them, continue
        </a>
      </div>
    </div>
  );
}

export function EnrolForm({ secret, next }: { secret: string; next: string }) {
  const [state, action] = useActionState<FormState, FormData>(confirmEnrolmentAction, {});
  if (state.shown) {
    return (
      <>
        <FormMessages state={state} />
        <RecoveryCodes codes={state.shown} next={next} />
      </>
    );
  }
  return (
    <form action={action} data-testid="enrol-form" className="account-form">
      <FormMessages state={state} />
      <input type="hidden" name="secret" value={secret} />
      <label>
        Code from the app
        <span className="hint">6 digits; it changes every 30 seconds.</span>
        <input
          name="code"
          inputMode="numeric"
          autoComplete="one-time-code"
          pattern="[0-9 ]*"
          maxLength={7}
          required
          aria-invalid={state.fieldErrors?.code ? true : undefined}
        />
      </label>
      <Submit pendingText="Checking…">Turn on two-factor sign-in</Submit>
    </form>
  );
}

export function RenewCodesForm() {
  const [state, action] = useActionState<FormState, FormData>(renewRecoveryCodesAction, {});
  if (state.shown) {
    return (
      <>
        <FormMessages state={state} />
        <RecoveryCodes codes={state.shown} next="/account/two-factor" />
      </>
    );
  }
  return (
    <form action={action} data-testid="renew-codes-form" className="account-form">
      <FormMessages state={state} />
      <label>
        Code from the app
        <span className="hint">Every recovery code you have now stops working.</span>
        <input name="code" inputMode="numeric" autoComplete="one-time-code" pattern="[0-9 ]*" maxLength={7} required />
      </label>
      <Submit pendingText="Renewing…">New recovery codes</Submit>
    </form>
  );
}

export function DisableForm({ email }: { email: string }) {
  const [state, action] = useActionState<FormState, FormData>(disableTwoFactorAction, {});
  return (
    <form action={action} data-testid="disable-form" className="account-form">
      <FormMessages state={state} />
      <input type="hidden" name="username" autoComplete="username" value={email} />
      <label>
        Password or code
        <span className="hint">Your password, or the code your app shows now.</span>
        <input name="proof" type="password" autoComplete="current-password" required />
      </label>
      <button type="submit" className="danger">
        Turn off two-factor sign-in
      </button>
    </form>
  );
}
