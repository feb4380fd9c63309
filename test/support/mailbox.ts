import type { Mailer, OutgoingEmail } from "../../src/core/email/mailer";

/** A Mailer that keeps what it is given, for core tests; `failing` makes every send throw. */
export class Mailbox implements Mailer {
  readonly sent: OutgoingEmail[] = [];
  failing = false;

  async send(email: OutgoingEmail): Promise<{ messageId: string }> {
    if (this.failing) throw new Error("the SMTP server is down");
    this.sent.push(email);
    return { messageId: `<${this.sent.length}@test>` };
  }

  /** The token of the newest reset link sent to `to`. */
  resetToken(to: string): string {
    const email = this.sent.filter((e) => e.to === to).at(-1);
    const token = email?.text.match(/\/reset-password\/([\w-]+)/)?.[1];
    if (!token) throw new Error(`no reset link was sent to ${to}`);
    return token;
  }
}
