"use server";

import { revalidatePath } from "next/cache";
import { sendTestEmail } from "@/src/core/preferences/email-setup";
import { saveNotificationChoices, saveProjectAlerts } from "@/src/core/preferences/save";
import { userAction } from "../lib/action";
import { field } from "../lib/forms";

const on = (form: FormData, name: string) => field(form, name) === "1";

/** The account page's notification choices: one checkbox per kind of email. */
export const saveNotificationChoicesAction = userAction("account:notifications", async ({ ctx, user, form }) => {
  await saveNotificationChoices({
    ctx,
    user,
    input: {
      issueAlerts: on(form, "issueAlerts"),
      assigned: on(form, "assigned"),
      comments: on(form, "comments"),
      resolutions: on(form, "resolutions"),
    },
  });
  revalidatePath("/account");
  return { notice: "Saved which emails you get." };
});

/** Issue alerts for one project: on, off, or as everywhere else. */
export const saveProjectAlertsAction = userAction("account:notifications", async ({ ctx, user, form }) => {
  const issueAlerts = field(form, "issueAlerts");
  const project = await saveProjectAlerts({ ctx, user, input: { projectId: field(form, "project"), issueAlerts } });
  revalidatePath("/account");
  const what = issueAlerts === "default" ? "as everywhere else" : issueAlerts;
  return { notice: `Issue alerts for ${project.orgSlug}/${project.slug}: ${what}.` };
});

/** Sends the signed-in person a test email now; without SMTP, says where it would go and why it is not sent. */
export const sendTestEmailAction = userAction("account:notifications", async ({ ctx, user }) => {
  const result = await sendTestEmail({ ctx, user });
  if (result.sent)
    return { notice: `Sent a test email to ${result.to}. If it does not arrive, check the spam folder and the SMTP server's log.` };
  return { error: `Not sent to ${result.to}: ${result.reason}.` };
});
