import { cookies, headers } from "next/headers";
import { redirect } from "next/navigation";
import { cache } from "react";
import { sameOriginPath } from "@/src/core/accounts/safe-next";
import { userForSession } from "@/src/core/accounts/sessions";
import type { User } from "@/src/core/accounts/user";
import { SESSION_COOKIE } from "@/src/server/cookies";
import { CLIENT_IP_HEADER } from "@/src/server/headers";
import { ctx, runtime } from "./app-runtime";

/** The signed-in user of this request, or null. Cached per request. */
export const currentUser = cache(async (): Promise<User | null> => {
  const token = (await cookies()).get(SESSION_COOKIE)?.value;
  return userForSession(ctx(), token);
});

/** The signed-in user; anyone else is sent to the login page, back here afterwards. */
export async function requireUser(returnTo?: string): Promise<User> {
  const user = await currentUser();
  if (!user) redirect(returnTo ? `/login?next=${encodeURIComponent(returnTo)}` : "/login");
  return user;
}

/** The client's address, resolved once by the front (src/server/proxy.ts), which overwrites any the client sent. */
export async function clientIp(): Promise<string> {
  return (await headers()).get(CLIENT_IP_HEADER) || "unknown";
}

/** Secure cookies when the browser reached us over https (directly or behind a trusted proxy). */
export async function requestIsHttps(): Promise<boolean> {
  const proto = (await headers()).get("x-forwarded-proto");
  return proto === "https" || runtime().settings.publicUrl.startsWith("https:");
}

export async function setSessionCookie(token: string, expiresAt: number): Promise<void> {
  (await cookies()).set(SESSION_COOKIE, token, {
    httpOnly: true,
    sameSite: "lax",
    secure: await requestIsHttps(),
    path: "/",
    expires: new Date(expiresAt),
  });
}

/** Only paths on this origin are followed after login, so `?next=` cannot send users elsewhere. */
export function safeNext(next: string | undefined | null): string {
  return sameOriginPath(next, runtime().settings.publicUrl);
}
