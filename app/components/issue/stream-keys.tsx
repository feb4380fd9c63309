"use client";

import { useRouter } from "next/navigation";
import { startTransition, useActionState, useEffect, useRef, useState } from "react";
import { triageAction } from "../../actions/issues";
import type { FormState } from "../../lib/forms";
import { isTyping, modalOpen } from "../palette/keys";

/** The rows the shortcuts walk: the stream's table rows carrying their issue's id and page. */
const rows = () => Array.from(document.querySelectorAll<HTMLTableRowElement>("tr[data-issue-id]"));

/** Each letter's triage change, as the buttons' `name="action"` fields spell it. */
const TRIAGE: Record<string, { action: string; verb: string }> = {
  r: { action: "resolve", verb: "Resolving" },
  i: { action: "ignoreForever", verb: "Ignoring" },
  e: { action: "assign", verb: "Assigning to you" },
};

/**
 * Keyboard shortcuts on the issue stream: j/k move a visible selection, Enter or o opens the
 * issue, r resolves, i ignores, e assigns to the signed-in user. The changes go through
 * triageAction, the server action behind the buttons, so the permission check and the
 * activity entries are the same as a click's. Renders only the live region that reports them.
 */
export function StreamKeys({ org, userId }: { org: string; userId: number }) {
  const router = useRouter();
  const [state, dispatch, pending] = useActionState<FormState, FormData>(triageAction, {});
  const [index, setIndex] = useState(-1);
  // Keys can arrive faster than React renders (a held j): each one reads the latest selection here.
  const latest = useRef(-1);
  const select = (n: number) => {
    latest.current = n;
    setIndex(n);
  };
  const [doing, setDoing] = useState("");

  // Reapplied after each action too: the refreshed stream may drop a row (a resolved issue
  // leaves "is:unresolved"), and the selection then rests on the row that took its place.
  useEffect(() => {
    const list = rows();
    const at = Math.min(index, list.length - 1);
    list.forEach((row, n) => {
      row.classList.toggle("kbd-selected", n === at);
      if (n === at) row.setAttribute("aria-current", "true");
      else row.removeAttribute("aria-current");
    });
    list[at]?.scrollIntoView({ block: "nearest" });
  }, [index, state, pending]);

  useEffect(() => {
    const onKey = (e: KeyboardEvent) => {
      if (e.ctrlKey || e.metaKey || e.altKey || isTyping(e.target) || modalOpen()) return;
      const list = rows();
      if (list.length === 0) return;
      const index = latest.current;
      const current = index >= 0 ? list[Math.min(index, list.length - 1)] : undefined;
      const triage = TRIAGE[e.key];
      if (e.key === "j") select(Math.min(index + 1, list.length - 1));
      else if (e.key === "k") select(Math.max(Math.min(index, list.length) - 1, 0));
      else if ((e.key === "Enter" || e.key === "o") && current?.dataset.href) {
        // Enter on a focused link or button keeps its own meaning.
        if (e.key === "Enter" && e.target instanceof Element && e.target.closest("a, button")) return;
        router.push(current.dataset.href);
      } else if (triage && current?.dataset.issueId) {
        const form = new FormData();
        form.set("org", org);
        form.set("issue", current.dataset.issueId);
        form.set("action", triage.action);
        if (triage.action === "assign") form.set("assignee", String(userId));
        setDoing(triage.verb);
        startTransition(() => dispatch(form));
      } else return;
      e.preventDefault();
    };
    document.addEventListener("keydown", onKey);
    return () => document.removeEventListener("keydown", onKey);
  }, [org, userId, router, dispatch]);

  const message = pending ? `${doing}…` : (state.error ?? state.notice ?? "");
  return (
    <p
      className={state.error ? "error" : "muted-small"}
      role="status"
      aria-live="polite"
      data-testid="stream-keys-status"
      hidden={message === ""}
    >
      {message} {message !== "" && !pending && <span className="muted-small">(press ? for shortcuts)</span>}
    </p>
  );
}
