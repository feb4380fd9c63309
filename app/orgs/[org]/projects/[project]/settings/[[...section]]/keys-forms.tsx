"use client";

import { useActionState } from "react";
import { createKeyAction, rotateKeyAction, setKeyActiveAction } from "../../../../../../actions/projects";
import { ButtonForm, FormMessages, Submit } from "../../../../../../components/form-parts";
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
  return (
    <ButtonForm
      action={setKeyActiveAction}
      hidden={{ org, project, keyId, active: active ? "0" : "1" }}
      label={active ? "Disable" : "Enable"}
      danger={active}
      testId="key-active-form"
    />
  );
}

export function RotateKeyForm({ org, project, keyId }: { org: string; project: string; keyId: number }) {
  return (
    <ButtonForm
      action={rotateKeyAction}
      hidden={{ org, project, keyId }}
      label="Rotate"
      title="Issue a new key with the same name and disable this one"
      testId="rotate-key-form"
    />
  );
}
