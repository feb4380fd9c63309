import { describe, expect, it } from "vitest";
import { hashResetToken, isResetTokenShape, newResetToken, RESET_TOKEN_TTL_MS, resetTokenExpired } from "./reset-tokens";

describe("password-reset tokens", () => {
  it("are 43 base64url characters (32 random bytes), different every time", () => {
    const tokens = new Set(Array.from({ length: 50 }, newResetToken));
    expect(tokens.size).toBe(50);
    for (const t of tokens) expect(isResetTokenShape(t)).toBe(true);
  });

  it("are stored as a SHA-256 that does not contain the token", () => {
    const token = newResetToken();
    const hash = hashResetToken(token);
    expect(hash).toMatch(/^[0-9a-f]{64}$/);
    expect(hash).not.toContain(token);
    expect(hashResetToken(token)).toBe(hash);
    expect(hashResetToken(newResetToken())).not.toBe(hash);
  });

  it("refuse the shape of anything else", () => {
    expect(isResetTokenShape("")).toBe(false);
    expect(isResetTokenShape("a".repeat(44))).toBe(false);
    expect(isResetTokenShape(`${"a".repeat(42)}/`)).toBe(false);
  });

  it("expire one hour after they were made, not before", () => {
    expect(RESET_TOKEN_TTL_MS).toBe(3_600_000);
    const made = 1_700_000_000_000;
    expect(resetTokenExpired(made + RESET_TOKEN_TTL_MS, made + RESET_TOKEN_TTL_MS - 1)).toBe(false);
    expect(resetTokenExpired(made + RESET_TOKEN_TTL_MS, made + RESET_TOKEN_TTL_MS)).toBe(true);
  });
});
