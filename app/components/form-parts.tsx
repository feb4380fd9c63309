"use client";

import { startTransition, useActionState, type FormEvent } from "react";
import { useFormStatus } from "react-dom";
import type { FormState } from "../lib/forms";

export function Submit({ children, pendingText }: { children: React.ReactNode; pendingText?: string }) {
  const { pending } = useFormStatus();
  return (
    <button type="submit" className="primary" disabled={pending}>
      {pending ? (pendingText ?? "Working…") : children}
    </button>
  );
}

export function FormMessages({ state }: { state: FormState }) {
  return (
    <>
      {state.error && (
        <p className="error" role="alert">
          {state.error}
        </p>
      )}
      {state.notice && (
        <p className="notice" role="status">
          {state.notice}
        </p>
      )}
    </>
  );
}

/** One button that posts its hidden fields to a server action; a refusal or failure shows under it. */
export function ButtonForm({
  action,
  hidden,
  label,
  testId,
  danger = false,
  title,
  pendingLabel,
  ariaLabel,
}: {
  action: (state: FormState, data: FormData) => Promise<FormState>;
  hidden: Record<string, string | number>;
  label: string;
  testId?: string;
  danger?: boolean;
  title?: string;
  /** Shown on the button while the action runs, which disables it. */
  pendingLabel?: string;
  ariaLabel?: string;
}) {
  const [state, formAction, pending] = useActionState<FormState, FormData>(action, {});
  return (
    <form action={formAction} data-testid={testId}>
      {Object.entries(hidden).map(([name, value]) => (
        <input key={name} type="hidden" name={name} value={value} />
      ))}
      <button
        type="submit"
        className={danger ? "danger" : undefined}
        title={title}
        aria-label={ariaLabel}
        disabled={pendingLabel !== undefined && pending}
      >
        {pending && pendingLabel !== undefined ? pendingLabel : label}
      </button>
      <FormMessages state={state} />
    </form>
  );
}

/**
 * A submit handler that runs the action itself instead of letting the form post: React resets a
 * form after its action, and a refused form must keep every value the person typed.
 */
export function submitKeepingValues(action: (data: FormData) => void) {
  return (e: FormEvent<HTMLFormElement>) => {
    e.preventDefault();
    const data = new FormData(e.currentTarget);
    startTransition(() => action(data));
  };
}
