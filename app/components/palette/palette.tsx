"use client";

import { useRouter } from "next/navigation";
import { useCallback, useEffect, useRef, useState } from "react";
import { isTyping, SHORTCUTS } from "./keys";
import "./palette.css";

interface Result {
  kind: "issue" | "event" | "trace" | "project";
  href: string;
  title?: string;
  shortId?: string;
  name?: string;
  slug?: string;
  eventId?: string;
  traceId?: string;
  project?: string;
}

/** The event a palette button sends; the palette itself lives outside the sidebar, which is hidden on phones until opened. */
const OPEN_EVENT = "telltale:palette";

/**
 * The sidebar's way in to the palette, for pointers and touch screens. On a phone the sidebar
 * is a drawer: it is closed (its checkbox unchecked) so the palette is not drawn over it.
 */
export function PaletteButton({ drawerToggleId }: { drawerToggleId: string }) {
  const onClick = () => {
    const toggle = document.getElementById(drawerToggleId);
    if (toggle instanceof HTMLInputElement && window.matchMedia("(max-width: 900px)").matches) toggle.checked = false;
    document.dispatchEvent(new Event(OPEN_EVENT));
  };
  return (
    <button type="button" className="palette-button" onClick={onClick} data-testid="palette-button">
      <span>Search…</span>
      <kbd>Ctrl K</kbd>
    </button>
  );
}

/** How long typing must pause before the lookup is asked, so a fast typist sends one request. */
const DEBOUNCE_MS = 120;

const label = (r: Result): { main: string; sub: string } => {
  switch (r.kind) {
    case "issue":
      return { main: r.title ?? "", sub: `Issue ${r.shortId ?? ""}` };
    case "event":
      return { main: r.title ?? "", sub: `Event ${r.eventId ?? ""} · ${r.project ?? ""}` };
    case "trace":
      return { main: `Trace ${r.traceId ?? ""}`, sub: "Trace" };
    case "project":
      return { main: r.name ?? "", sub: `Project ${r.slug ?? ""}` };
  }
};

/** Reads the lookup's JSON without trusting its shape: a non-array answer shows no results. */
function resultsOf(body: unknown): Result[] {
  if (typeof body !== "object" || body === null || !("results" in body) || !Array.isArray(body.results)) return [];
  return body.results.filter((r): r is Result => typeof r === "object" && r !== null && typeof (r as Result).href === "string");
}

/**
 * The command palette (Ctrl-K, ⌘-K or `/`) and the shortcut help (`?`). Both are native
 * <dialog>s opened with showModal(): the browser keeps focus inside and closes on Escape.
 * https://developer.mozilla.org/en-US/docs/Web/HTML/Element/dialog
 * Results come from GET /api/0/organizations/{org}/lookup with the session cookie, the
 * product's rule for page data (src/server/api/lookup-routes.ts).
 */
export function Palette({ org }: { org: string }) {
  const router = useRouter();
  const dialog = useRef<HTMLDialogElement>(null);
  const help = useRef<HTMLDialogElement>(null);
  const [query, setQuery] = useState("");
  const [results, setResults] = useState<Result[]>([]);
  const [active, setActive] = useState(0);
  const [loading, setLoading] = useState(false);
  /** The query the shown results answer; typing runs ahead of it until the lookup replies. */
  const [answered, setAnswered] = useState("");

  const open = useCallback(() => {
    if (!dialog.current || dialog.current.open) return;
    help.current?.close();
    dialog.current.showModal();
  }, []);

  useEffect(() => {
    const onKey = (e: KeyboardEvent) => {
      if ((e.ctrlKey || e.metaKey) && !e.altKey && e.key.toLowerCase() === "k") {
        e.preventDefault();
        if (dialog.current?.open) dialog.current.close();
        else open();
        return;
      }
      if (e.ctrlKey || e.metaKey || e.altKey || isTyping(e.target) || dialog.current?.open) return;
      if (e.key === "/") {
        e.preventDefault();
        open();
      } else if (e.key === "?" && help.current && !help.current.open) {
        e.preventDefault();
        help.current.showModal();
      }
    };
    document.addEventListener("keydown", onKey);
    document.addEventListener(OPEN_EVENT, open);
    return () => {
      document.removeEventListener("keydown", onKey);
      document.removeEventListener(OPEN_EVENT, open);
    };
  }, [open]);

  const ask = useCallback(
    (q: string, signal?: AbortSignal): Promise<Result[]> =>
      fetch(`/api/0/organizations/${encodeURIComponent(org)}/lookup?query=${encodeURIComponent(q)}`, { credentials: "same-origin", signal })
        .then((res) => (res.ok ? res.json() : { results: [] }))
        .then((body: unknown) => resultsOf(body)),
    [org],
  );

  useEffect(() => {
    const q = query.trim();
    if (q === "") {
      setResults([]);
      setAnswered("");
      return;
    }
    const abort = new AbortController();
    const timer = setTimeout(() => {
      setLoading(true);
      ask(q, abort.signal)
        .then((found) => {
          setResults(found);
          setAnswered(q);
          setActive(0);
          setLoading(false);
        })
        .catch(() => setLoading(false));
    }, DEBOUNCE_MS);
    return () => {
      clearTimeout(timer);
      abort.abort();
    };
  }, [query, ask]);

  const go = (r: Result | undefined) => {
    if (!r) return;
    dialog.current?.close();
    setQuery("");
    router.push(r.href);
  };

  const onInputKey = (e: React.KeyboardEvent<HTMLInputElement>) => {
    if (e.key === "ArrowDown") setActive((a) => Math.min(a + 1, results.length - 1));
    else if (e.key === "ArrowUp") setActive((a) => Math.max(a - 1, 0));
    else if (e.key === "Enter") {
      // A pasted id and a quick Enter must not open the previous query's result (or nothing).
      const q = query.trim();
      if (answered === q) go(results[active]);
      else if (q !== "")
        void ask(q).then(
          (found) => go(found[0]),
          () => undefined,
        );
    } else return;
    e.preventDefault();
  };

  return (
    <>
      <dialog ref={dialog} className="palette" aria-label="Search" data-testid="palette" onClose={() => setQuery("")}>
        <input
          autoFocus
          type="text"
          value={query}
          onChange={(e) => setQuery(e.target.value)}
          onKeyDown={onInputKey}
          placeholder="Short id, event id, trace id, project or title"
          aria-label="Search the organization"
          role="combobox"
          aria-expanded={results.length > 0}
          aria-controls="palette-results"
          aria-activedescendant={results[active] ? `palette-result-${active}` : undefined}
          data-testid="palette-input"
        />
        <ul id="palette-results" role="listbox" aria-label="Results" data-testid="palette-results">
          {results.map((r, n) => {
            const { main, sub } = label(r);
            return (
              <li
                key={r.href}
                id={`palette-result-${n}`}
                role="option"
                aria-selected={n === active}
                onMouseEnter={() => setActive(n)}
                onClick={() => go(r)}
              >
                <span className="palette-main">{main}</span>
                <span className="palette-sub">{sub}</span>
              </li>
            );
          })}
        </ul>
        {query.trim() !== "" && !loading && results.length === 0 && <p className="palette-empty">Nothing found.</p>}
        <p className="palette-hint">↑ ↓ to choose · Enter to open · Esc to close · ? for shortcuts</p>
      </dialog>
      <dialog ref={help} className="palette" aria-label="Keyboard shortcuts" data-testid="shortcut-help">
        <h2>Keyboard shortcuts</h2>
        <table>
          <tbody>
            {SHORTCUTS.map((s) => (
              <tr key={s.what}>
                <td>
                  {s.keys.map((k) => (
                    <kbd key={k}>{k}</kbd>
                  ))}
                </td>
                <td>
                  {s.what} <span className="palette-sub">({s.where})</span>
                </td>
              </tr>
            ))}
          </tbody>
        </table>
        <form method="dialog">
          <button type="submit">Close</button>
        </form>
      </dialog>
    </>
  );
}
