import { randomUUID } from "node:crypto";
import type { Ctx } from "../context";
import { renderEmail } from "../email/templates";
import { linksPointAtLocalhost } from "../auth/dsn";

export { linksPointAtLocalhost };

/** What the settings pages say about email: whether it is sent at all, and whether its links work elsewhere. */
export interface EmailSetup {
  smtp: boolean;
  publicUrl: string;
  /** SMTP is set but links point at localhost (the warning of issue 14). */
  localhostLinks: boolean;
}

export function emailSetup(ctx: Pick<Ctx, "mailer" | "publicUrl">): EmailSetup {
  const smtp = ctx.mailer !== null;
  return { smtp, publicUrl: ctx.publicUrl, localhostLinks: smtp && linksPointAtLocalhost(ctx.publicUrl) };
}

export type TestEmailResult = { sent: true; to: string } | { sent: false; to: string; reason: string };

/** How much of an SMTP error a person is shown. */
const ERROR_CHARS = 300;

/** Sends the signed-in person a test email, now (not through the notification rows): it tells at once whether SMTP works. */
export async function sendTestEmail({ ctx, user }: { ctx: Ctx; user: { email: string } }): Promise<TestEmailResult> {
  if (!ctx.mailer) return { sent: false, to: user.email, reason: "no SMTP server is configured (TELLTALE_SMTP_URL)" };
  const base = ctx.publicUrl.replace(/\/$/, "");
  const email = renderEmail({
    subject: "Telltale test email",
    heading: "Email from Telltale works",
    paragraphs: [
      `This is the test email you asked for on your account page. Alerts, assignments, comments and resolutions reach you at ${user.email}.`,
      ...(linksPointAtLocalhost(ctx.publicUrl)
        ? [`Links in Telltale's emails point at ${base}, which only this server's machine reaches: set TELLTALE_URL to its public address.`]
        : []),
    ],
    action: { label: "Choose which emails you get", url: `${base}/account#notifications` },
    footer: `Sent by Telltale at ${base}.`,
  });
  try {
    // Each test its own Message-ID: the mailer's default is made from the content, and a server may drop a repeat as a duplicate.
    await ctx.mailer.send({ ...email, to: user.email, messageId: `<test.${randomUUID()}@${new URL(ctx.publicUrl).hostname}>` });
  } catch (error) {
    const message = error instanceof Error ? error.message : String(error);
    return { sent: false, to: user.email, reason: `the SMTP server refused it: ${message.slice(0, ERROR_CHARS)}` };
  }
  return { sent: true, to: user.email };
}
