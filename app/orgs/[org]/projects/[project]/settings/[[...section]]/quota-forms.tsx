"use client";

import { useActionState } from "react";
import { removeQuotaAction, setKeyRateLimitAction, setQuotaAction } from "../../../../../../actions/projects";
import { ButtonForm, FormMessages, Submit } from "../../../../../../components/form-parts";
import type { FormState } from "../../../../../../lib/forms";

const inline = { maxWidth: 120, marginTop: 0 } as const;

export function KeyLimitForm(props: { org: string; project: string; keyId: number; count: number | null; window: number | null }) {
  const [state, action] = useActionState<FormState, FormData>(setKeyRateLimitAction, {});
  return (
    <form action={action} data-testid="key-limit-form">
      <FormMessages state={state} />
      <input type="hidden" name="org" value={props.org} />
      <input type="hidden" name="project" value={props.project} />
      <input type="hidden" name="keyId" value={props.keyId} />
      <div className="row">
        <input
          name="count"
          type="number"
          min={0}
          placeholder="events"
          defaultValue={props.count ?? ""}
          style={inline}
          aria-label="Events"
        />
        <span>per</span>
        <input
          name="window"
          type="number"
          min={1}
          max={86400}
          defaultValue={props.window ?? 60}
          style={inline}
          aria-label="Window in seconds"
        />
        <span>s</span>
        <Submit>Save</Submit>
      </div>
    </form>
  );
}

export function QuotaForm({ org, project, categories }: { org: string; project: string; categories: readonly string[] }) {
  const [state, action] = useActionState<FormState, FormData>(setQuotaAction, {});
  return (
    <form action={action}>
      <FormMessages state={state} />
      <input type="hidden" name="org" value={org} />
      <input type="hidden" name="project" value={project} />
      <div className="row">
        <select name="category" style={{ ...inline, maxWidth: 160 }} aria-label="Category">
          {categories.map((c) => (
            <option key={c} value={c}>
              {c === "*" ? "all categories" : c}
            </option>
          ))}
        </select>
        <input name="count" type="number" min={0} required placeholder="count" style={inline} aria-label="Count" />
        <span>per</span>
        <input name="window" type="number" min={1} max={86400} required defaultValue={60} style={inline} aria-label="Window in seconds" />
        <span>s</span>
        <Submit>Set quota</Submit>
      </div>
    </form>
  );
}

export function RemoveQuotaForm({ org, project, category }: { org: string; project: string; category: string }) {
  return <ButtonForm action={removeQuotaAction} hidden={{ org, project, category }} label="Remove" danger testId="remove-quota-form" />;
}
