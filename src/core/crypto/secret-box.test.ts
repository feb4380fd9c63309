import { describe, expect, it } from "vitest";
import { SecretBox } from "./secret-box";

describe("SecretBox", () => {
  const box = new SecretBox("a long and random server key, 32+ chars");

  it("seals with a key: the stored value does not contain the secret, and opens back to it", () => {
    const sealed = box.seal("JBSWY3DPEHPK3PXPJBSWY3DPEHPK3PXP", "totp");
    expect(sealed).toMatch(/^v1:[\w-]+:[\w-]+:[\w-]+$/);
    expect(sealed).not.toContain("JBSWY3DP");
    expect(box.open(sealed, "totp")).toBe("JBSWY3DPEHPK3PXPJBSWY3DPEHPK3PXP");
  });

  it("uses a fresh IV each time, so one secret sealed twice differs", () => {
    expect(box.seal("same", "totp")).not.toBe(box.seal("same", "totp"));
  });

  it("refuses a value sealed for another purpose, under another key, or changed", () => {
    const sealed = box.seal("secret", "totp");
    expect(() => box.open(sealed, "sso-client-secret")).toThrow(/does not open/);
    expect(() => new SecretBox("another key of the server, also long").open(sealed, "totp")).toThrow(/does not open/);
    const last = sealed.at(-1) === "A" ? "B" : "A";
    expect(() => box.open(sealed.slice(0, -1) + last, "totp")).toThrow(/does not open/);
    expect(() => box.open("v1:garbage", "totp")).toThrow(/truncated/);
    expect(box.tryOpen(sealed, "sso-sign-in")).toBeNull();
    expect(box.tryOpen("v1.garbage", "sso-sign-in")).toBeNull();
  });

  it("stores TOTP secrets plain without a key, and still opens plain values once a key is set", () => {
    const plain = new SecretBox(null);
    expect(plain.sealing).toBe(false);
    expect(plain.seal("secret", "totp")).toBe("plain:secret");
    expect(box.open("plain:secret", "totp")).toBe("secret");
    expect(() => plain.open(box.seal("secret", "totp"), "totp")).toThrow(/TELLTALE_SECRET_KEY is not set/);
  });

  it("never stores single sign-on's secrets plain, nor opens a plain one: its cookie comes from the browser", () => {
    expect(() => new SecretBox(null).seal("s3cret", "sso-client-secret")).toThrow(/needs TELLTALE_SECRET_KEY/);
    expect(box.tryOpen('plain:{"org":"acme"}', "sso-sign-in")).toBeNull();
    expect(box.tryOpen("plain:s3cret", "sso-client-secret")).toBeNull();
  });

  it("opens what single sign-on's former box sealed (v1.…, its own key derivation)", () => {
    // Sealed under "k".repeat(32) by src/core/sso/secret-box.ts before it was folded in here.
    const old = new SecretBox("k".repeat(32));
    expect(old.open("v1.xBwWizl7UjVg9HzA.Hd7ACSGP2XwhbE-cgfzyjw.Pe0-c8YK", "sso-client-secret")).toBe("s3cret");
    expect(old.tryOpen("v1.im9O2iMUnKFE3mCZ.ugy-5KC-8IRHes8QYxQDpg.NP4NAya8fc-SoqEZW_s", "sso-sign-in")).toBe('{"org":"acme"}');
    expect(old.tryOpen("v1.im9O2iMUnKFE3mCZ.ugy-5KC-8IRHes8QYxQDpg.NP4NAya8fc-SoqEZW_s", "sso-client-secret")).toBeNull();
    expect(new SecretBox("x".repeat(32)).tryOpen("v1.xBwWizl7UjVg9HzA.Hd7ACSGP2XwhbE-cgfzyjw.Pe0-c8YK", "sso-client-secret")).toBeNull();
  });

  it("will not work with a short key", () => {
    expect(() => new SecretBox("short")).toThrow(/too short/);
  });
});
