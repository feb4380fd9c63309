"use server";

import { orgTarget } from "@/src/core/audit/targets";
import { headers } from "next/headers";
import { revalidatePath } from "next/cache";
import { redirect } from "next/navigation";
import { completeSignIn } from "@/src/core/twofactor/complete-sign-in";
import { confirmEnrolment } from "@/src/core/twofactor/enrol";
import { disableTwoFactor, renewRecoveryCodes } from "@/src/core/twofactor/manage";
import { setTwoFactorRequired } from "@/src/core/twofactor/require";
import { isTelltaleError } from "@/src/core/errors";
import { clientIp, safeNext, setSessionCookie } from "../lib/auth";
import { ctx } from "../lib/app-runtime";
import { action, publicAction, userAction } from "../lib/action";
import { field, type FormState } from "../lib/forms";
import { challengeCookie, clearChallengeCookie } from "../lib/second-factor";

/** The sign-in's second step: the pending sign-in's cookie and a code open the session. */
async function secondFactor(_prev: FormState, form: FormData): Promise<FormState> {
  try {
    const session = await completeSignIn({
      ctx: ctx(),
      input: {
        challenge: await challengeCookie(),
        code: field(form, "code"),
        ip: await clientIp(),
        userAgent: (await headers()).get("user-agent") ?? "",
      },
    });
    await setSessionCookie(session.token, session.expiresAt);
    await clearChallengeCookie();
  } catch (error) {
    if (isTelltaleError(error)) return { error: error.message, code: error.code };
    throw error;
  }
  redirect(safeNext(field(form, "next")));
}

// Public by design: the pending sign-in's cookie is the credential (src/core/permissions/table.ts).
export const secondFactorAction = publicAction("session:second-factor", secondFactor);

export const confirmEnrolmentAction = userAction("twofactor:write", async ({ ctx, user, form }) => {
  const { recoveryCodes } = await confirmEnrolment({
    ctx,
    user,
    input: { secret: field(form, "secret"), code: field(form, "code"), ip: await clientIp() },
  });
  // No revalidation: the page would replace this form, and the codes with it, before they are read.
  return { notice: "Two-factor sign-in is on.", shown: recoveryCodes };
});

export const renewRecoveryCodesAction = userAction("twofactor:write", async ({ ctx, user, form }) => {
  const { recoveryCodes } = await renewRecoveryCodes({ ctx, user, input: { code: field(form, "code"), ip: await clientIp() } });
  return { notice: "New recovery codes. The old ones no longer work.", shown: recoveryCodes };
});

export const disableTwoFactorAction = userAction("twofactor:write", async ({ ctx, user, form }) => {
  await disableTwoFactor({ ctx, user, input: { proof: field(form, "proof"), ip: await clientIp() } });
  revalidatePath("/account", "layout");
  return { notice: "Two-factor sign-in is off." };
});

export const setTwoFactorRequiredAction = action("org:require-two-factor", async ({ ctx, user, access, form, audit }) => {
  const required = field(form, "required") === "1";
  const before = access.org.require_2fa === 1;
  await setTwoFactorRequired({ ctx, user, access, required });
  await audit({ event: "org.require-2fa", target: orgTarget(access.org), before: { required: before }, after: { required } });
  revalidatePath(`/orgs/${access.org.slug}`, "layout");
  return {
    notice: required ? "Members without two-factor sign-in are now sent to set it up." : "Two-factor sign-in is no longer required.",
  };
});
