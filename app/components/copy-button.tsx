"use client";

import { useState } from "react";

type State = "idle" | "copied" | "failed";

/**
 * Copies `text` to the clipboard. A client component, not an inline onclick: pages send a
 * nonce-based CSP that refuses inline handlers. The Clipboard API needs a secure context
 * (https or localhost, https://developer.mozilla.org/en-US/docs/Web/API/Clipboard/writeText);
 * elsewhere the button says so and the text stays selectable.
 */
export function CopyButton({ text, label = "Copy", testId }: { text: string; label?: string; testId?: string }) {
  const [state, setState] = useState<State>("idle");
  const copy = async () => {
    try {
      await navigator.clipboard.writeText(text);
      setState("copied");
    } catch {
      setState("failed");
    }
    setTimeout(() => setState("idle"), 2000);
  };
  return (
    <button type="button" className="copy-button" onClick={copy} data-testid={testId} aria-live="polite">
      {state === "copied" ? "Copied" : state === "failed" ? "Select and copy" : label}
    </button>
  );
}
