"use server";

import { cookies } from "next/headers";
import { revalidatePath } from "next/cache";
import { redirect } from "next/navigation";
import { changePassword } from "@/src/core/accounts/change-password";
import { endSessions, revokeSession } from "@/src/core/accounts/sessions";
import { SESSION_COOKIE } from "@/src/server/cookies";
import { userAction } from "../lib/action";
import { field } from "../lib/forms";

const sessionToken = async () => (await cookies()).get(SESSION_COOKIE)?.value;

export const changePasswordAction = userAction("account:write", async ({ ctx, user, form }) => {
  await changePassword({
    ctx,
    user,
    input: { current: field(form, "current"), password: field(form, "password"), sessionToken: await sessionToken() },
  });
  revalidatePath("/account");
  return { notice: "Password changed. Your other sessions were signed out." };
});

export const revokeSessionAction = userAction("account:write", async ({ ctx, user, form }) => {
  await revokeSession(ctx, user.id, field(form, "session"));
  revalidatePath("/account");
  return { notice: "Signed out that session." };
});

/** Every session, this one included: back to the sign-in page. */
export const signOutEverywhereAction = userAction("account:write", async ({ ctx, user }) => {
  await endSessions(ctx, user.id);
  (await cookies()).delete(SESSION_COOKIE);
  redirect("/login");
});
