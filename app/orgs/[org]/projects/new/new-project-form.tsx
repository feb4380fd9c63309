"use client";

import { useActionState } from "react";
import { createProjectAction } from "../../../../actions/projects";
import { FormMessages, Submit } from "../../../../components/form-parts";
import type { FormState } from "../../../../lib/forms";

export function NewProjectForm({ org, platforms }: { org: string; platforms: { id: string; name: string }[] }) {
  const [state, action] = useActionState<FormState, FormData>(createProjectAction, {});
  const v = state.values ?? {};
  return (
    <form action={action} className="panel">
      <FormMessages state={state} />
      <input type="hidden" name="org" value={org} />
      <label>
        Platform
        <select name="platform" defaultValue={v.platform ?? "javascript"}>
          {platforms.map((p) => (
            <option key={p.id} value={p.id}>
              {p.name}
            </option>
          ))}
        </select>
      </label>
      <label>
        Project slug <span className="hint">used in URLs and the API, e.g. web-frontend</span>
        <input name="slug" required pattern="[a-z0-9][a-z0-9_\-]*" defaultValue={v.slug} />
      </label>
      <label>
        Name <span className="hint">optional; defaults to the slug</span>
        <input name="name" defaultValue={v.name} />
      </label>
      <Submit pendingText="Creating…">Create project</Submit>
    </form>
  );
}
