"use client";

import { useActionState } from "react";
import { saveNotificationChoicesAction, saveProjectAlertsAction, sendTestEmailAction } from "../actions/notifications";
import { ButtonForm, FormMessages, Submit } from "../components/form-parts";
import type { FormState } from "../lib/forms";

export interface Choices {
  issueAlerts: boolean;
  assigned: boolean;
  comments: boolean;
  resolutions: boolean;
}

const CHOICES: { name: keyof Choices; label: string; hint: string }[] = [
  { name: "issueAlerts", label: "Issue alerts", hint: "new issues, regressions and escalations, as your projects' alert rules send them" },
  { name: "assigned", label: "Assigned to me", hint: "when someone else assigns an issue to you or to a team you are in" },
  { name: "comments", label: "Comments", hint: "on issues you take part in: assigned to you, commented on or bookmarked" },
  { name: "resolutions", label: "Resolutions", hint: "of issues you take part in" },
];

export function NotificationChoicesForm({ choices }: { choices: Choices }) {
  const [state, action] = useActionState<FormState, FormData>(saveNotificationChoicesAction, {});
  return (
    <form action={action} className="notification-choices" data-testid="notification-choices">
      <FormMessages state={state} />
      {CHOICES.map((c) => (
        <label key={c.name} className="checkbox">
          <input type="checkbox" name={c.name} value="1" defaultChecked={choices[c.name]} />
          {c.label}
          <span className="hint">{c.hint}</span>
        </label>
      ))}
      <Submit pendingText="Saving…">Save</Submit>
    </form>
  );
}

export function ProjectAlertsForm({ projects }: { projects: { id: number; label: string }[] }) {
  const [state, action] = useActionState<FormState, FormData>(saveProjectAlertsAction, {});
  return (
    <form action={action} className="project-alerts-form" data-testid="project-alerts-form">
      <FormMessages state={state} />
      <label>
        Project
        <select name="project" required defaultValue="">
          <option value="" disabled>
            Choose a project
          </option>
          {projects.map((p) => (
            <option key={p.id} value={p.id}>
              {p.label}
            </option>
          ))}
        </select>
      </label>
      <label>
        Issue alerts
        <select name="issueAlerts" defaultValue="off">
          <option value="off">off</option>
          <option value="on">on</option>
          <option value="default">as everywhere else</option>
        </select>
      </label>
      <Submit pendingText="Saving…">Set</Submit>
    </form>
  );
}

export function ProjectAlertsResetForm({ projectId, label }: { projectId: number; label: string }) {
  return (
    <ButtonForm
      action={saveProjectAlertsAction}
      hidden={{ project: projectId, issueAlerts: "default" }}
      label="Reset"
      pendingLabel="Resetting…"
      ariaLabel={`Issue alerts for ${label} as everywhere else`}
    />
  );
}

export function TestEmailForm() {
  const [state, action] = useActionState<FormState, FormData>(sendTestEmailAction, {});
  return (
    <form action={action} data-testid="test-email-form">
      <FormMessages state={state} />
      <Submit pendingText="Sending…">Send a test email</Submit>
    </form>
  );
}
