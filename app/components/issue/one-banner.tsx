"use client";

import { createContext, useContext, useId, useState } from "react";

const Latest = createContext<{ latest: string | null; claim(id: string): void } | null>(null);

/**
 * One message area per page: each form keeps its own action state, so after two actions
 * (bookmark, then assign) both forms would say "Updated.". Inside this provider only the form
 * submitted last shows its message.
 */
export function OneBanner({ children }: { children: React.ReactNode }) {
  const [latest, claim] = useState<string | null>(null);
  return <Latest.Provider value={{ latest, claim }}>{children}</Latest.Provider>;
}

/** Whether this form's message is shown, and the call that makes it the latest (on submit). */
export function useBanner(): { shown: boolean; claim(): void } {
  const id = useId();
  const ctx = useContext(Latest);
  if (!ctx) return { shown: true, claim: () => {} };
  return { shown: ctx.latest === id, claim: () => ctx.claim(id) };
}
