"use client";

import { useActionState } from "react";
import { setAlertRuleStatusAction } from "../../../../../actions/alerts";
import { FormMessages } from "../../../../../components/form-parts";
import type { FormState } from "../../../../../lib/forms";

/** Switch a rule on or off; a refusal or failure shows under the button, never as an error page. */
export function RuleStatusForm({ org, project, ruleId, active }: { org: string; project: string; ruleId: number; active: boolean }) {
  const [state, action] = useActionState<FormState, FormData>(setAlertRuleStatusAction, {});
  return (
    <form action={action} data-testid="rule-status-form">
      <input type="hidden" name="org" value={org} />
      <input type="hidden" name="project" value={project} />
      <input type="hidden" name="ruleId" value={ruleId} />
      <input type="hidden" name="active" value={active ? "0" : "1"} />
      <button type="submit" className={active ? "danger" : undefined}>
        {active ? "Switch off" : "Switch on"}
      </button>
      <FormMessages state={state} />
    </form>
  );
}
