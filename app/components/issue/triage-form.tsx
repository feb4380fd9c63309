"use client";

import { useActionState } from "react";
import { triageAction } from "../../actions/issues";
import { FormMessages } from "../form-parts";
import { useBanner } from "./one-banner";
import type { FormState } from "../../lib/forms";

/**
 * A form posting a triage server action for some issues; its buttons name the action
 * (`name="action" value="resolve"`). Messages from the server appear above it (inside
 * `OneBanner`, only for the form submitted last).
 */
export function TriageForm({
  org,
  issueIds,
  children,
  id,
  testId,
}: {
  org: string;
  issueIds?: number[];
  children: React.ReactNode;
  id?: string;
  testId?: string;
}) {
  const [state, action] = useActionState<FormState, FormData>(triageAction, {});
  const banner = useBanner();
  return (
    <form action={action} onSubmit={banner.claim} id={id} data-testid={testId}>
      {banner.shown && <FormMessages state={state} />}
      <input type="hidden" name="org" value={org} />
      {issueIds?.map((i) => (
        <input key={i} type="hidden" name="issue" value={i} />
      ))}
      {children}
    </form>
  );
}
