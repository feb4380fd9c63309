import { scryptSync } from "node:crypto";
import { describe, expect, it } from "vitest";
import { dummyHash, hashPassword, verifyPassword } from "./password";

describe("hashPassword", () => {
  it("stores scrypt parameters, salt and hash in a self-describing string", async () => {
    const hash = await hashPassword("correct horse battery staple");
    expect(hash).toMatch(/^scrypt\$32768\$8\$1\$[\w-]{22}\$[\w-]{43}$/);
    expect(hash).not.toContain("correct horse");
  });

  it("salts every hash, so the same password hashes differently", async () => {
    const [a, b] = await Promise.all([hashPassword("same password"), hashPassword("same password")]);
    expect(a).not.toBe(b);
  });
});

describe("verifyPassword", () => {
  it("accepts the password the hash was made from and refuses another", async () => {
    const hash = await hashPassword("correct horse battery staple");
    expect(await verifyPassword("correct horse battery staple", hash)).toBe(true);
    expect(await verifyPassword("correct horse battery stapler", hash)).toBe(false);
    expect(await verifyPassword("", hash)).toBe(false);
  });

  it("compares passwords after NFKC normalisation", async () => {
    // U+212B ANGSTROM SIGN and U+00C5 LATIN CAPITAL LETTER A WITH RING ABOVE look the same to a person.
    const hash = await hashPassword("\u212Bngstr\u00F6m-password");
    expect(await verifyPassword("\u00C5ngstr\u00F6m-password", hash)).toBe(true);
  });

  it("verifies with the parameters stored in the hash, so they can be raised later", async () => {
    const hash = await hashPassword("parameters travel with the hash");
    const [, , , , salt] = hash.split("$");
    // A hash made with cheaper parameters must still verify (and must not verify with the current ones).
    const cheap = scryptSync("parameters travel with the hash", Buffer.from(salt!, "base64url"), 32, { N: 1024, r: 8, p: 1 });
    const stored = ["scrypt", 1024, 8, 1, salt, cheap.toString("base64url")].join("$");
    expect(await verifyPassword("parameters travel with the hash", stored)).toBe(true);
    expect(await verifyPassword("another password entirely", stored)).toBe(false);
  });

  it.each(["", "plaintext", "bcrypt$10$abc$def", "scrypt$32768$8$1$onlysalt"])("refuses a malformed stored hash %j", async (stored) => {
    expect(await verifyPassword("whatever", stored)).toBe(false);
  });
});

describe("dummyHash", () => {
  it("is a valid hash that no guessed password is likely to match", async () => {
    const hash = await dummyHash();
    expect(hash).toMatch(/^scrypt\$/);
    expect(await dummyHash()).toBe(hash);
    expect(await verifyPassword("password", hash)).toBe(false);
  });
});
