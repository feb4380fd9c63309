"use server";

import { headers } from "next/headers";
import { requestPasswordReset, RESET_REQUESTED, resetPassword } from "@/src/core/accounts/password-reset";
import { clientIp } from "../lib/auth";
import { ctx } from "../lib/app-runtime";
import { publicAction } from "../lib/action";
import { field, type FormState } from "../lib/forms";
import { finishPasswordSignIn } from "../lib/second-factor";

/** "Forgot your password?": the same answer whether or not the account exists. */
async function requestReset(_prev: FormState, form: FormData): Promise<FormState> {
  if (!ctx().mailer) return { error: "Email is not set up on this server. Ask an administrator to reset your password." };
  await requestPasswordReset({ ctx: ctx(), input: { email: field(form, "email"), ip: await clientIp() } });
  return { notice: RESET_REQUESTED, values: { email: field(form, "email") } };
}

/** The reset link's form: a new password, then signed in (after the second factor, for those who have it) with every older session ended. */
async function chooseNewPassword(_prev: FormState, form: FormData): Promise<FormState> {
  const session = await resetPassword({
    ctx: ctx(),
    input: {
      token: field(form, "token"),
      password: field(form, "password"),
      ip: await clientIp(),
      userAgent: (await headers()).get("user-agent") ?? "",
    },
  });
  return finishPasswordSignIn(session, "/");
}

// Public by design: someone who forgot their password has no session (src/core/permissions/table.ts).
export const requestResetAction = publicAction("password:reset", requestReset, { keep: ["email"] });
export const resetPasswordAction = publicAction("password:reset", chooseNewPassword);
