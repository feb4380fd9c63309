"use server";

import { revalidatePath } from "next/cache";
import { cookies } from "next/headers";
import { redirect } from "next/navigation";
import { orgTarget } from "@/src/core/audit/targets";
import { removeSsoProvider, saveSsoProvider, setSsoRequired } from "@/src/core/sso/configure";
import { beginSsoSignIn } from "@/src/core/sso/sign-in";
import { SSO_COOKIE } from "@/src/server/cookies";
import { requestIsHttps, safeNext } from "../lib/auth";
import { ctx } from "../lib/app-runtime";
import { action, publicAction } from "../lib/action";
import { field, type FormState } from "../lib/forms";

/** "Sign in with <org> SSO": seals the sign-in's state in a cookie for the callback, then leaves for the provider. */
async function startSso(_prev: FormState, form: FormData): Promise<FormState> {
  const started = await beginSsoSignIn({ ctx: ctx(), input: { org: field(form, "org"), next: safeNext(field(form, "next")) } });
  (await cookies()).set(SSO_COOKIE, started.cookie, {
    httpOnly: true,
    // Lax: the provider sends the browser back with a top-level GET from its own site.
    sameSite: "lax",
    secure: await requestIsHttps(),
    path: "/sso/",
    expires: new Date(started.expiresAt),
  });
  redirect(started.location);
}

export const startSsoAction = publicAction("sso:login", startSso, { keep: ["org"] });

export const saveSsoAction = action(
  "sso:write",
  async ({ ctx, access, form, audit }) => {
    const issuer = field(form, "issuer");
    await saveSsoProvider({
      ctx,
      input: {
        access,
        provider: {
          issuer: field(form, "issuer"),
          clientId: field(form, "clientId"),
          clientSecret: field(form, "clientSecret"),
          defaultRole: field(form, "defaultRole"),
          defaultTeam: field(form, "defaultTeam"),
        },
      },
    });
    await audit({
      event: "sso.edit",
      target: orgTarget(access.org),
      after: { issuer: issuer.slice(0, 200), clientId: field(form, "clientId").slice(0, 200) },
    });
    revalidatePath(`/orgs/${access.org.slug}/settings/sso`);
    return { notice: "Saved: the provider answered its discovery document." };
  },
  { keep: ["issuer", "clientId"] },
);

export const requireSsoAction = action("sso:write", async ({ ctx, access, form, audit }) => {
  const required = field(form, "required") === "1";
  await setSsoRequired({ ctx, input: { access, required } });
  await audit({ event: "sso.require", target: orgTarget(access.org), after: { required } });
  revalidatePath(`/orgs/${access.org.slug}/settings/sso`);
  return { notice: required ? "Members must now sign in through the provider." : "Members may sign in with a password again." };
});

export const removeSsoAction = action("sso:write", async ({ ctx, access, audit }) => {
  await removeSsoProvider({ ctx, input: { access } });
  await audit({ event: "sso.disable", target: orgTarget(access.org) });
  revalidatePath(`/orgs/${access.org.slug}/settings/sso`);
  return { notice: "The identity provider was removed." };
});
