"use client";

import { useActionState } from "react";
import { createKeyAction, rotateKeyAction, setKeyActiveAction } from "../../../../../../actions/projects";
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

/** Enable or disable a key; a refusal or failure shows under the button, never as an error page. */
export function KeyActiveForm({ org, project, keyId, active }: { org: string; project: string; keyId: number; active: boolean }) {
  const [state, action] = useActionState<FormState, FormData>(setKeyActiveAction, {});
  return (
    <form action={action} data-testid="key-active-form">
      <input type="hidden" name="org" value={org} />
      <input type="hidden" name="project" value={project} />
      <input type="hidden" name="keyId" value={keyId} />
      <input type="hidden" name="active" value={active ? "0" : "1"} />
      <button type="submit" className={active ? "danger" : undefined}>
        {active ? "Disable" : "Enable"}
      </button>
      <FormMessages state={state} />
    </form>
  );
}

export function RotateKeyForm({ org, project, keyId }: { org: string; project: string; keyId: number }) {
  const [state, action] = useActionState<FormState, FormData>(rotateKeyAction, {});
  return (
    <form action={action} data-testid="rotate-key-form">
      <input type="hidden" name="org" value={org} />
      <input type="hidden" name="project" value={project} />
      <input type="hidden" name="keyId" value={keyId} />
      <button type="submit" title="Issue a new key with the same name and disable this one">
        Rotate
      </button>
      <FormMessages state={state} />
    </form>
  );
}
