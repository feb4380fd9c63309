"use client";

import { useActionState } from "react";
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
}: {
  action: (state: FormState, data: FormData) => Promise<FormState>;
  hidden: Record<string, string | number>;
  label: string;
  testId: string;
  danger?: boolean;
  title?: string;
}) {
  const [state, formAction] = useActionState<FormState, FormData>(action, {});
  return (
    <form action={formAction} data-testid={testId}>
      {Object.entries(hidden).map(([name, value]) => (
        <input key={name} type="hidden" name={name} value={value} />
      ))}
      <button type="submit" className={danger ? "danger" : undefined} title={title}>
        {label}
      </button>
      <FormMessages state={state} />
    </form>
  );
}
