import { createHash } from "node:crypto";
import nodemailer from "nodemailer";
import type { Settings } from "../config/settings";
import type { Mailer, OutgoingEmail } from "../core/email/mailer";
import { log } from "./log";

/** How long one SMTP exchange may take before the send fails (nodemailer's timeouts, in ms). */
const SMTP_TIMEOUT_MS = 30_000;

/**
 * The Message-ID of an email: the same message gets the same id (a retry is recognised as a
 * duplicate), on the domain of TELLTALE_URL (RFC 5322 §3.6.4, https://www.rfc-editor.org/rfc/rfc5322#section-3.6.4).
 */
export function messageIdFor(email: OutgoingEmail, publicUrl: string): string {
  const digest = createHash("sha256")
    .update(JSON.stringify([email.to, email.subject, email.text]))
    .digest("hex")
    .slice(0, 32);
  return `<${digest}@${new URL(publicUrl).hostname}>`;
}

/** Where the SMTP server is, for logs: the host and port only, never the credentials in the URL. */
export function smtpHostForLogs(smtpUrl: string): string {
  try {
    return new URL(smtpUrl).host;
  } catch {
    return "(unparseable)";
  }
}

/**
 * Email over SMTP with nodemailer (https://nodemailer.com/smtp/): `smtp://` upgrades with
 * STARTTLS when the server offers it, `smtps://` is TLS from the start. Null without
 * TELLTALE_SMTP_URL: then Ctx.mailer is null and features say email is not set up.
 */
export function createMailer(settings: Settings): Mailer | null {
  if (!settings.email) return null;
  const { smtpUrl, from } = settings.email;
  const transport = nodemailer.createTransport(
    { url: smtpUrl, connectionTimeout: SMTP_TIMEOUT_MS, greetingTimeout: SMTP_TIMEOUT_MS, socketTimeout: SMTP_TIMEOUT_MS },
    { from },
  );
  const server = smtpHostForLogs(smtpUrl);
  return {
    async send(email) {
      const messageId = email.messageId ?? messageIdFor(email, settings.publicUrl);
      try {
        await transport.sendMail({ from, to: email.to, subject: email.subject, text: email.text, html: email.html, messageId });
      } catch (error) {
        log("error", "email not sent", { server, messageId, error: error instanceof Error ? error.message : String(error) });
        throw error;
      }
      log("info", "email sent", { server, messageId });
      return { messageId };
    },
  };
}
