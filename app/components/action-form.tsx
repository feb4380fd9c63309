"use client";

import { useActionState, type ReactNode } from "react";
import type { ServerAction } from "../lib/action";
import type { FormState } from "../lib/forms";
import { FormMessages, Submit } from "./form-parts";

export interface TextField {
  name: string;
  label: string;
  defaultValue?: string;
  placeholder?: string;
  required?: boolean;
  maxLength?: number;
  hint?: string;
}

/**
 * A small form posting to one server action: hidden fields naming what it acts on, the fields
 * given as children, one button, and the action's refusal or notice under it. `danger` marks a
 * button that removes something. Text fields get what was typed back after an error (the action's `keep`).
 */
export function ActionForm({
  action,
  hidden,
  children,
  fields = [],
  submit,
  label,
  danger = false,
  testId,
  className,
}: {
  action: ServerAction;
  hidden: Record<string, string | number>;
  children?: ReactNode;
  /** Text fields, which keep what was typed when the action refuses it. */
  fields?: TextField[];
  submit: string;
  /** The button's accessible name when its text alone is ambiguous in a list ("Remove ada@…"). */
  label?: string;
  danger?: boolean;
  testId?: string;
  className?: string;
}) {
  const [state, formAction] = useActionState<FormState, FormData>(action, {});
  return (
    <form action={formAction} data-testid={testId} className={className}>
      {Object.entries(hidden).map(([name, value]) => (
        <input key={name} type="hidden" name={name} value={value} />
      ))}
      {fields.map((f) => (
        <label key={`${f.name}-${state.values?.[f.name] ?? ""}`}>
          {f.label}
          <input
            name={f.name}
            defaultValue={state.error ? (state.values?.[f.name] ?? f.defaultValue ?? "") : (f.defaultValue ?? "")}
            placeholder={f.placeholder}
            required={f.required}
            maxLength={f.maxLength ?? 200}
            aria-invalid={state.fieldErrors?.[f.name] ? true : undefined}
          />
          {f.hint && <span className="muted-small">{f.hint}</span>}
          {state.fieldErrors?.[f.name] && <span className="field-error">{state.fieldErrors[f.name]}</span>}
        </label>
      ))}
      {children}
      {danger ? (
        <button type="submit" className="danger" aria-label={label}>
          {submit}
        </button>
      ) : label ? (
        <button type="submit" aria-label={label}>
          {submit}
        </button>
      ) : (
        <Submit>{submit}</Submit>
      )}
      <FormMessages state={state} />
    </form>
  );
}
