"use client";

import { useActionState } from "react";
import { createKeyAction } from "../../../../../../actions/projects";
import { FormMessages, Submit } from "../../../../../../components/form-parts";
import type { FormState } from "../../../../../../lib/forms";

export function NewKeyForm({ org, project }: { org: string; project: string }) {
  const [state, action] = useActionState<FormState, FormData>(createKeyAction, {});
  return (
    <form action={action}>
      <FormMessages state={state} />
      <input type="hidden" name="org" value={org} />
      <input type="hidden" name="project" value={project} />
      <div className="row">
        <input name="label" placeholder="Key name, e.g. Mobile app" required maxLength={64} style={{ maxWidth: 320, marginTop: 0 }} />
        <Submit pendingText="Creating…">Create key</Submit>
      </div>
    </form>
  );
}
