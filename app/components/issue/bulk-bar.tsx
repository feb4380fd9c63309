"use client";

import type { MouseEvent } from "react";
import { AssigneeOptions } from "./assignee-options";

/** The checked issue boxes of the form a button or box sits in. */
function issueBoxes(el: HTMLElement): HTMLInputElement[] {
  return [...(el.closest("form")?.querySelectorAll<HTMLInputElement>("input[type=checkbox][name=issue]") ?? [])];
}

/** Asks before a merge, naming how many issues become one: a merge moves events and can only be undone issue by issue. */
function confirmMerge(e: MouseEvent<HTMLButtonElement>) {
  const n = issueBoxes(e.currentTarget).filter((b) => b.checked).length;
  if (n < 2) return; // the server says why (select at least two)
  if (!window.confirm(`Merge ${n} issues into the one seen first? Their events move there; each can be unmerged from its own page.`))
    e.preventDefault();
}

/**
 * The stream's bulk actions over the checked rows of its form: select all, resolve, ignore,
 * merge (after a confirmation) and assign, each through the triage action as one issue's
 * buttons are. The assignee is a member's id or `team:<id>`, as on the issue page.
 */
export function BulkBar({ members, teams }: { members: { id: number; label: string }[]; teams: { id: number; slug: string }[] }) {
  return (
    <div className="toolbar bulk-bar">
      <label className="row select-all" style={{ margin: 0, fontWeight: 400 }}>
        <input
          type="checkbox"
          data-testid="select-all"
          style={{ width: "auto" }}
          onChange={(e) => {
            for (const box of issueBoxes(e.currentTarget)) box.checked = e.currentTarget.checked;
          }}
        />
        All
      </label>
      <button name="action" value="resolve">
        Resolve
      </button>
      <button name="action" value="unresolve">
        Unresolve
      </button>
      <button name="action" value="ignoreForever">
        Ignore
      </button>
      <button name="action" value="merge" onClick={confirmMerge}>
        Merge
      </button>
      <span className="row bulk-assign">
        <select name="assignee" aria-label="Assignee" data-testid="bulk-assignee" style={{ width: "auto", marginTop: 0 }} defaultValue="">
          <AssigneeOptions people={members} teams={teams} />
        </select>
        <button name="action" value="assign">
          Assign
        </button>
      </span>
    </div>
  );
}
