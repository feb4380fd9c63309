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
    expect(() => box.open(sealed, "oidc")).toThrow(/does not open/);
    expect(() => new SecretBox("another key of the server, also long").open(sealed, "totp")).toThrow(/does not open/);
    const last = sealed.at(-1) === "A" ? "B" : "A";
    expect(() => box.open(sealed.slice(0, -1) + last, "totp")).toThrow(/does not open/);
  });

  it("stores plain without a key, and still opens plain values once a key is set", () => {
    const plain = new SecretBox(null);
    expect(plain.sealing).toBe(false);
    expect(plain.seal("secret", "totp")).toBe("plain:secret");
    expect(box.open("plain:secret", "totp")).toBe("secret");
    expect(() => plain.open(box.seal("secret", "totp"), "totp")).toThrow(/TELLTALE_SECRET_KEY is not set/);
  });
});
