"use client";

import { useActionState } from "react";
import { addDefaultAlertRuleAction, deleteAlertRuleAction } from "../../../../../actions/alerts";
import { FormMessages } from "../../../../../components/form-parts";
import type { FormState } from "../../../../../lib/forms";

/** Deletes a rule after the browser's confirmation; a refusal shows under the button. */
export function DeleteRuleForm({ org, project, ruleId, name }: { org: string; project: string; ruleId: number; name: string }) {
  const [state, action] = useActionState<FormState, FormData>(deleteAlertRuleAction, {});
  return (
    <form
      action={action}
      data-testid="delete-rule-form"
      onSubmit={(e) => {
        if (!window.confirm(`Delete the rule “${name}”?`)) e.preventDefault();
      }}
    >
      <input type="hidden" name="org" value={org} />
      <input type="hidden" name="project" value={project} />
      <input type="hidden" name="ruleId" value={ruleId} />
      <button type="submit" className="danger">
        Delete
      </button>
      <FormMessages state={state} />
    </form>
  );
}

/** An existing project is offered the rule new projects get: email its members about new issues. */
export function DefaultRuleOffer({ org, project }: { org: string; project: string }) {
  const [state, action] = useActionState<FormState, FormData>(addDefaultAlertRuleAction, {});
  return (
    <form action={action} data-testid="default-rule-offer">
      <input type="hidden" name="org" value={org} />
      <input type="hidden" name="project" value={project} />
      <p>New projects email their members about each new issue. This project was created before that rule existed, or it was deleted.</p>
      <button type="submit" className="primary">
        Add the default rule
      </button>
      <FormMessages state={state} />
    </form>
  );
}
