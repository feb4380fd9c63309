"use client";

import { useEffect, useSyncExternalStore } from "react";

/**
 * The project a page is about when its URL does not say (an issue or a trace page: /issues/42):
 * the page names it with <CurrentProject>, and the sidebar's switcher shows it. The layout above
 * the page does not re-render on navigation, hence this small store rather than a prop.
 */
let current: string | null = null;
const listeners = new Set<() => void>();

function set(slug: string | null): void {
  if (current === slug) return;
  current = slug;
  for (const listener of listeners) listener();
}

function subscribe(listener: () => void): () => void {
  listeners.add(listener);
  return () => listeners.delete(listener);
}

/** The project the page shown names, or null. */
export function useCurrentProject(): string | null {
  return useSyncExternalStore(
    subscribe,
    () => current,
    () => null,
  );
}

/** Names the page's project for the sidebar while the page is shown; renders nothing. */
export function CurrentProject({ slug }: { slug: string }) {
  useEffect(() => {
    set(slug);
    return () => set(null);
  }, [slug]);
  return null;
}
