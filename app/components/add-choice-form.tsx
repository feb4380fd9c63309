import type { ReactNode } from "react";
import type { ServerAction } from "../lib/action";
import { ActionForm } from "./action-form";

/**
 * "Choose one and add it": a select of what can still be added (a member to a team, a project to
 * a team, a team to a project) posting to one action, with extra fields as children.
 */
export function AddChoiceForm({
  action,
  hidden,
  submit,
  testId,
  name,
  label,
  placeholder,
  choices,
  children,
}: {
  action: ServerAction;
  hidden: Record<string, string | number>;
  submit: string;
  testId: string;
  /** The form field the chosen value is posted as. */
  name: string;
  /** The select's accessible name. */
  label: string;
  placeholder: string;
  choices: readonly { value: string | number; label: string }[];
  children?: ReactNode;
}) {
  return (
    <ActionForm action={action} hidden={hidden} submit={submit} className="inline-form add-form" testId={testId}>
      <select name={name} aria-label={label} defaultValue="">
        <option value="" disabled>
          {placeholder}
        </option>
        {choices.map((c) => (
          <option key={c.value} value={c.value}>
            {c.label}
          </option>
        ))}
      </select>
      {children}
    </ActionForm>
  );
}
