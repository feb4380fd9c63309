"use client";

import { useRouter } from "next/navigation";
import { useEffect } from "react";

/**
 * Re-renders the server page every `ms` while mounted: router.refresh() fetches the page's
 * server components again with a same-origin GET (cookies included) and keeps client state
 * (https://nextjs.org/docs/app/api-reference/functions/use-router); hidden tabs skip their turn
 * (https://developer.mozilla.org/en-US/docs/Web/API/Document/visibilityState). The page stops rendering
 * this component once it has what it waited for, which ends the polling.
 */
export function RefreshEvery({ ms }: { ms: number }) {
  const router = useRouter();
  useEffect(() => {
    // A background tab does not ask: the Page Visibility API says when nobody can see the answer.
    const timer = setInterval(() => {
      if (document.visibilityState === "visible") router.refresh();
    }, ms);
    return () => clearInterval(timer);
  }, [router, ms]);
  return null;
}
