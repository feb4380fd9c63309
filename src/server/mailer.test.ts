import { describe, expect, it } from "vitest";
import { parseSettings } from "../config/settings";
import { createMailer, messageIdFor, smtpHostForLogs } from "./mailer";

const email = { to: "ada@example.com", subject: "Hello", text: "Hi", html: "<p>Hi</p>" };

describe("the SMTP mailer", () => {
  it("is off without TELLTALE_SMTP_URL", () => {
    expect(createMailer(parseSettings({}))).toBeNull();
  });

  it("sends from Telltale at the host of TELLTALE_URL unless TELLTALE_EMAIL_FROM says otherwise", () => {
    const url = "smtp://user:secret@mail.example:587";
    expect(parseSettings({ TELLTALE_SMTP_URL: url, TELLTALE_URL: "https://errors.example.com" }).email).toEqual({
      smtpUrl: url,
      from: "Telltale <telltale@errors.example.com>",
    });
    expect(parseSettings({ TELLTALE_SMTP_URL: url, TELLTALE_EMAIL_FROM: "Ops <ops@example.com>" }).email?.from).toBe(
      "Ops <ops@example.com>",
    );
  });

  it("refuses an SMTP URL of another scheme without echoing it", () => {
    expect(() => parseSettings({ TELLTALE_SMTP_URL: "http://user:hunter2@mail.example" })).toThrow(/TELLTALE_SMTP_URL/);
    expect(() => parseSettings({ TELLTALE_SMTP_URL: "http://user:hunter2@mail.example" })).not.toThrow(/hunter2/);
  });

  it("gives the same message the same Message-ID, on the public host, and another message another", () => {
    const id = messageIdFor(email, "https://errors.example.com");
    expect(id).toMatch(/^<[0-9a-f]{32}@errors\.example\.com>$/);
    expect(messageIdFor({ ...email }, "https://errors.example.com")).toBe(id);
    expect(messageIdFor({ ...email, text: "Bye" }, "https://errors.example.com")).not.toBe(id);
  });

  it("names the SMTP server in logs without its credentials", () => {
    expect(smtpHostForLogs("smtps://user:hunter2@mail.example:465")).toBe("mail.example:465");
  });
});
