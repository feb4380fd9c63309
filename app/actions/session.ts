"use server";

import { cookies } from "next/headers";
import { redirect } from "next/navigation";
import { login, passwordSignIn, type PasswordSignIn } from "@/src/core/accounts/login";
import { logout } from "@/src/core/accounts/sessions";
import { setupFirstAdmin } from "@/src/core/accounts/setup-first-admin";
import { isTelltaleError } from "@/src/core/errors";
import { SESSION_COOKIE } from "@/src/server/cookies";
import { clientIp, safeNext, setSessionCookie } from "../lib/auth";
import { ctx } from "../lib/app-runtime";
import { publicAction } from "../lib/action";
import { field, type FormState } from "../lib/forms";
import { finishPasswordSignIn } from "../lib/second-factor";
import { headers } from "next/headers";

async function signIn(_prev: FormState, form: FormData): Promise<FormState> {
  let result: PasswordSignIn;
  try {
    result = await passwordSignIn({
      ctx: ctx(),
      input: {
        email: field(form, "email"),
        password: field(form, "password"),
        ip: await clientIp(),
        userAgent: (await headers()).get("user-agent") ?? "",
      },
    });
  } catch (error) {
    if (isTelltaleError(error)) return { error: error.message, values: { email: field(form, "email") } };
    throw error;
  }
  return finishPasswordSignIn(result, safeNext(field(form, "next")));
}

async function setUp(_prev: FormState, form: FormData): Promise<FormState> {
  const values = {
    email: field(form, "email"),
    name: field(form, "name"),
    orgSlug: field(form, "orgSlug"),
    orgName: field(form, "orgName"),
  };
  try {
    await setupFirstAdmin({ ctx: ctx(), input: { ...values, password: field(form, "password") } });
    const session = await login({
      ctx: ctx(),
      input: {
        email: values.email,
        password: field(form, "password"),
        ip: await clientIp(),
        userAgent: (await headers()).get("user-agent") ?? "",
      },
    });
    await setSessionCookie(session.token, session.expiresAt);
  } catch (error) {
    if (!isTelltaleError(error)) throw error;
    const fieldErrors = error.details.fields;
    // Field problems are shown beside their fields; the banner only points at them.
    // Nothing typed is echoed back: the form keeps its own inputs (app/setup/setup-form.tsx).
    if (fieldErrors && Object.keys(fieldErrors).length > 0) return { error: "Check the fields marked below.", fieldErrors };
    return { error: error.message };
  }
  redirect(`/orgs/${values.orgSlug.trim().toLowerCase()}`);
}

/** Signs out to the sign-in page, or to `next` (an invitation for another address asks for that). */
async function signOut(_prev: FormState, form: FormData): Promise<FormState> {
  const jar = await cookies();
  await logout(ctx(), jar.get(SESSION_COOKIE)?.value);
  jar.delete(SESSION_COOKIE);
  const next = field(form, "next");
  redirect(next ? safeNext(next) : "/login");
}

// Public by design: the permission table lists them as such (src/core/permissions/table.ts).
export const loginAction = publicAction("session:login", signIn);
export const setupAction = publicAction("session:setup", setUp);
export const logoutAction = publicAction("session:logout", signOut);
