import { simpleParser, type ParsedMail } from "mailparser";
import type { AddressInfo } from "node:net";
import { SMTPServer } from "smtp-server";
import { waitFor } from "./wait";

export interface TestSmtp {
  /** TELLTALE_SMTP_URL for the server under test, with the credentials this server accepts. */
  url: string;
  /** The password in `url`, to check that it never reaches a log. */
  password: string;
  messages: ParsedMail[];
  /** The next message to `to` after `after` messages to them, once it arrives. */
  nextTo(to: string, after?: number): Promise<ParsedMail>;
  countTo(to: string): number;
  close(): Promise<void>;
}

const recipients = (mail: ParsedMail) => [mail.to].flat().flatMap((a) => a?.value.map((v) => v.address ?? "") ?? []);

/**
 * A real SMTP server on loopback (smtp-server, the receiving side of nodemailer's project), with
 * plain-text AUTH, parsing what it receives with mailparser. STARTTLS is off: a test has no
 * certificate for it, and loopback needs none. `refuseFirst` refuses that many messages first (451).
 */
export async function startSmtp(options: { refuseFirst?: number } = {}): Promise<TestSmtp> {
  let refusals = options.refuseFirst ?? 0;
  const password = "smtp-secret-" + Math.random().toString(36).slice(2);
  const messages: ParsedMail[] = [];
  const server = new SMTPServer({
    disabledCommands: ["STARTTLS"],
    allowInsecureAuth: true,
    logger: false,
    onAuth(auth, _session, callback) {
      if (auth.username === "telltale" && auth.password === password) callback(null, { user: "telltale" });
      else callback(new Error("invalid credentials"));
    },
    onData(stream, _session, callback) {
      if (refusals > 0) {
        // A temporary refusal (451), after reading the message, as a busy server answers.
        refusals--;
        stream.resume();
        stream.on("end", () => callback(Object.assign(new Error("try again later"), { responseCode: 451 })));
        return;
      }
      simpleParser(stream).then(
        (mail) => {
          messages.push(mail);
          callback();
        },
        (error: Error) => callback(error),
      );
    },
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.server.address() as AddressInfo;
  const countTo = (to: string) => messages.filter((m) => recipients(m).includes(to)).length;
  return {
    url: `smtp://telltale:${password}@127.0.0.1:${port}`,
    password,
    messages,
    countTo,
    async nextTo(to, after = 0) {
      await waitFor(async () => countTo(to) > after, 20_000, `an email to ${to}`);
      return messages.filter((m) => recipients(m).includes(to))[after]!;
    },
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}
