/**
 * The port every feature sends email through (password resets, invitations, alerts). Core
 * composes the message; the transport (SMTP with nodemailer, src/server/mailer.ts) lives
 * outside core. `Ctx.mailer` is null when no SMTP server is configured.
 */
export interface OutgoingEmail {
  to: string;
  subject: string;
  text: string;
  html: string;
  /** A stable `Message-ID` (with its angle brackets) for a message that may be sent again; otherwise one from the content. */
  messageId?: string;
}

export interface Mailer {
  send(email: OutgoingEmail): Promise<{ messageId: string }>;
}
