import { describe, expect, it } from "vitest";
import type { Mailer } from "../email/mailer";
import { emailSetup, linksPointAtLocalhost } from "./email-setup";

const mailer: Mailer = { send: async () => ({ messageId: "<x@test>" }) };

describe("linksPointAtLocalhost", () => {
  it("is true for TELLTALE_URL's default and other loopback hosts", () => {
    for (const url of ["http://localhost:8000", "http://127.0.0.1:8000", "http://[::1]:8000", "http://app.localhost", "http://0.0.0.0"])
      expect(linksPointAtLocalhost(url), url).toBe(true);
  });

  it("is false for a public address or an unparseable one", () => {
    for (const url of ["https://telltale.example.com", "http://10.0.0.5:8000", "not a url"])
      expect(linksPointAtLocalhost(url), url).toBe(false);
  });
});

describe("emailSetup", () => {
  it("warns about localhost links only when email is sent at all", () => {
    expect(emailSetup({ mailer, publicUrl: "http://localhost:8000" }).localhostLinks).toBe(true);
    expect(emailSetup({ mailer: null, publicUrl: "http://localhost:8000" })).toEqual({
      smtp: false,
      publicUrl: "http://localhost:8000",
      localhostLinks: false,
    });
    expect(emailSetup({ mailer, publicUrl: "https://telltale.example.com" }).localhostLinks).toBe(false);
  });
});
