import Link from "next/link";
import { cookies } from "next/headers";
import { redirect } from "next/navigation";
import { isSetUp } from "@/src/core/accounts/is-set-up";
import { ssoSignInTarget } from "@/src/core/sso/sign-in";
import { SSO_ERROR_COOKIE } from "@/src/server/cookies";
import { currentUser, safeNext } from "../lib/auth";
import { ctx } from "../lib/app-runtime";
import { LoginForm } from "./login-form";
import { SsoForm } from "./sso-form";

export const dynamic = "force-dynamic";
export const metadata = { title: "Sign in" };

export default async function LoginPage({ searchParams }: { searchParams: Promise<{ next?: string; sso?: string }> }) {
  if (!(await isSetUp(ctx()))) redirect("/setup");
  const query = await searchParams;
  const next = safeNext(query.next);
  if (await currentUser()) redirect(next);
  const ssoOrg = typeof query.sso === "string" ? await ssoSignInTarget(ctx(), query.sso) : null;
  // Set by the SSO callback for one minute; shown only on the page it sends the browser to.
  const ssoError = ssoOrg ? (await cookies()).get(SSO_ERROR_COOKIE)?.value : undefined;
  return (
    <main className="narrow">
      <h1>Sign in</h1>
      {ssoError && (
        <p className="error" role="alert" data-testid="sso-error">
          {ssoError}
        </p>
      )}
      {ssoOrg && <SsoForm next={next} org={ssoOrg} />}
      <LoginForm next={next} />
      <p>
        <Link href="/forgot-password">Forgot your password?</Link>
      </p>
      {!ssoOrg && (
        <details className="sso-details">
          <summary>Sign in with single sign-on</summary>
          <SsoForm next={next} org={null} />
        </details>
      )}
    </main>
  );
}
