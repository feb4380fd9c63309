"use client";

import { startTransition, useActionState, useState } from "react";
import { triageAction } from "../../actions/issues";
import { FormMessages } from "../form-parts";
import { useBanner } from "./one-banner";
import type { FormState } from "../../lib/forms";
import { AssigneeOptions } from "./assignee-options";

interface Member {
  id: number;
  email: string;
  name: string | null;
}

/**
 * The assignee picker. React 19 resets a form after an action passed as `<form action>`
 * (https://react.dev/reference/react-dom/components/form#handle-form-submission-with-a-server-action):
 * the native reset moves the select back to the option it was first rendered with ("nobody"),
 * controlled or not, since a mounted select's default option does not follow `defaultValue`.
 * So the form submits through `onSubmit` and dispatches the action in a transition (no reset),
 * and the chosen value is state; a new value from the server (someone else assigned) wins.
 */
export function AssignForm({
  org,
  issueId,
  assigneeId,
  assigneeTeamId = null,
  members,
  teams = [],
  children,
}: {
  org: string;
  issueId: number;
  assigneeId: number | null;
  /** Assigned to a team instead: the select's value is then `team:<id>`, as Sentry's assignedTo. */
  assigneeTeamId?: number | null;
  members: Member[];
  teams?: { id: number; slug: string }[];
  children?: React.ReactNode;
}) {
  const [state, action] = useActionState<FormState, FormData>(triageAction, {});
  const banner = useBanner();
  const server = assigneeTeamId !== null ? `team:${assigneeTeamId}` : assigneeId === null ? "" : String(assigneeId);
  const [chosen, setChosen] = useState(server);
  const [seen, setSeen] = useState(server);
  // Adjusting state to a changed prop during render (https://react.dev/learn/you-might-not-need-an-effect#adjusting-some-state-when-a-prop-changes).
  if (seen !== server) {
    setSeen(server);
    setChosen(server);
  }
  return (
    <form
      action={action}
      onSubmit={(e) => {
        e.preventDefault();
        banner.claim();
        // The submitter carries `action=assign`, as a native submission would send it.
        const data = new FormData(e.currentTarget, e.nativeEvent.submitter);
        startTransition(() => action(data));
      }}
      data-testid="assign-form"
    >
      {banner.shown && <FormMessages state={state} />}
      <input type="hidden" name="org" value={org} />
      <input type="hidden" name="issue" value={issueId} />
      <div className="toolbar">
        <label style={{ margin: 0, fontWeight: 400 }} className="row">
          Assignee
          <select
            name="assignee"
            value={chosen}
            onChange={(e) => setChosen(e.target.value)}
            style={{ width: "auto", marginTop: 0 }}
            data-testid="assignee"
          >
            <AssigneeOptions people={members.map((m) => ({ id: m.id, label: m.name || m.email }))} teams={teams} />
          </select>
        </label>
        <button name="action" value="assign">
          Assign
        </button>
        {children}
      </div>
    </form>
  );
}
