import { cookies } from "next/headers";
import { redirect } from "next/navigation";
import QRCode from "qrcode";
import type { PasswordSignIn } from "@/src/core/accounts/login";
import { CHALLENGE_COOKIE } from "@/src/server/cookies";
import { requestIsHttps, setSessionCookie } from "./auth";

/**
 * After a right password (sign-in, a reset link): the session cookie and on to `next`, or, for
 * a user with two-factor sign-in, the pending sign-in's own cookie and the code's page.
 */
export async function finishPasswordSignIn(result: PasswordSignIn, next: string): Promise<never> {
  if (result.kind === "session") {
    await setSessionCookie(result.token, result.expiresAt);
    redirect(next);
  }
  (await cookies()).set(CHALLENGE_COOKIE, result.challenge, {
    httpOnly: true,
    sameSite: "lax",
    secure: await requestIsHttps(),
    path: "/login",
    expires: new Date(result.expiresAt),
  });
  redirect(`/login/two-factor?next=${encodeURIComponent(next)}`);
}

export async function challengeCookie(): Promise<string | undefined> {
  return (await cookies()).get(CHALLENGE_COOKIE)?.value;
}

export async function clearChallengeCookie(): Promise<void> {
  (await cookies()).delete({ name: CHALLENGE_COOKIE, path: "/login" });
}

/** The enrolment QR code as an SVG data URL, drawn on the server (the page's CSP allows `data:` images). */
export async function qrDataUrl(text: string): Promise<string> {
  const svg = await QRCode.toString(text, {
    type: "svg",
    errorCorrectionLevel: "M",
    margin: 2,
    color: { dark: "#111111", light: "#ffffff" },
  });
  return `data:image/svg+xml;base64,${Buffer.from(svg).toString("base64")}`;
}
