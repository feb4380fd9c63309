"use client";

import { useEffect } from "react";
import { LAST_ORG_COOKIE, LAST_ORG_MAX_AGE } from "./last-org";

/**
 * Remembers the organization shown for the shell of pages outside it (./last-org.ts). Written by
 * the browser because a layout (a server component) may not set cookies:
 * https://nextjs.org/docs/app/api-reference/functions/cookies#setting-a-cookie
 */
export function RememberOrg({ slug }: { slug: string }) {
  useEffect(() => {
    const secure = window.location.protocol === "https:" ? "; Secure" : "";
    document.cookie = `${LAST_ORG_COOKIE}=${encodeURIComponent(slug)}; Path=/; Max-Age=${LAST_ORG_MAX_AGE}; SameSite=Lax${secure}`;
  }, [slug]);
  return null;
}
