import { cookies } from "next/headers";
import { NextResponse } from "next/server";
import { isTelltaleError } from "@/src/core/errors";
import { ProviderError } from "@/src/core/sso/oidc";
import { completeSsoSignIn } from "@/src/core/sso/sign-in";
import { SESSION_COOKIE, SSO_COOKIE, SSO_ERROR_COOKIE } from "@/src/server/cookies";
import { log } from "@/src/server/log";
import { clientIp, requestIsHttps, safeNext } from "../../../lib/auth";
import { ctx, runtime } from "../../../lib/app-runtime";
import { publicRoute } from "../../../lib/route-handler";

export const dynamic = "force-dynamic";

/**
 * Where the organization's OpenID provider sends the browser back (`redirect_uri`). The code
 * is traded and the ID token checked in core (src/core/sso/sign-in.ts); a refusal goes back to
 * the sign-in page with its reason in a one-minute cookie, never in the URL.
 */
export const GET = publicRoute<{ org: string }>("sso:login", async (request, { params }) => {
  const { org } = await params;
  const publicUrl = runtime().settings.publicUrl;
  // The URL the provider was told, on TELLTALE_URL, whatever host the request came in by.
  const callbackUrl = new URL(`${publicUrl}/sso/${encodeURIComponent(org)}/callback${new URL(request.url).search}`);
  const secure = await requestIsHttps();
  const sealed = (await cookies()).get(SSO_COOKIE)?.value;
  try {
    const result = await completeSsoSignIn({
      ctx: ctx(),
      input: { org, callbackUrl, cookie: sealed, ip: await clientIp(), userAgent: request.headers.get("user-agent") ?? "" },
    });
    log("info", "sso sign-in", { org, userId: result.user.id });
    const response = NextResponse.redirect(new URL(safeNext(result.next), publicUrl), 303);
    response.cookies.set(SESSION_COOKIE, result.token, {
      httpOnly: true,
      sameSite: "lax",
      secure,
      path: "/",
      expires: new Date(result.expiresAt),
    });
    return response;
  } catch (error) {
    if (!(error instanceof ProviderError) && !isTelltaleError(error)) throw error;
    const cause = error instanceof ProviderError && error.cause instanceof Error ? error.cause.message : undefined;
    log("warn", "sso sign-in refused", { org, reason: error.message, cause });
    const response = NextResponse.redirect(new URL(`/login?sso=${encodeURIComponent(org)}`, publicUrl), 303);
    response.cookies.set(SSO_ERROR_COOKIE, error.message.slice(0, 300), {
      httpOnly: true,
      sameSite: "lax",
      secure,
      path: "/login",
      maxAge: 60,
    });
    return response;
  }
  // One cookie per answer: only the last Set-Cookie of a route handler's redirect reached the
  // browser here. The sign-in cookie is left to expire (10 minutes); its state is spent anyway,
  // since the provider takes a code once.
});
