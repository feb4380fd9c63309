"use client";

import { useActionState } from "react";
import { testAlertRuleAction } from "../../../../../actions/alerts";
import { FormMessages } from "../../../../../components/form-parts";
import type { FormState } from "../../../../../lib/forms";

/** "Test this rule": fires its actions once with the project's newest issue; what happened shows in the notifications below. */
export function TestRuleForm({ org, project, ruleId }: { org: string; project: string; ruleId: number }) {
  const [state, action, pending] = useActionState<FormState, FormData>(testAlertRuleAction, {});
  return (
    <form action={action} data-testid="test-rule-form">
      <input type="hidden" name="org" value={org} />
      <input type="hidden" name="project" value={project} />
      <input type="hidden" name="ruleId" value={ruleId} />
      <button type="submit" disabled={pending}>
        Test this rule
      </button>
      <FormMessages state={state} />
    </form>
  );
}
