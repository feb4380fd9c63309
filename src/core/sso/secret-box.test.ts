import { describe, expect, it } from "vitest";
import { open, seal } from "./secret-box";

const KEY = "k".repeat(32);

describe("secret box (AES-256-GCM)", () => {
  it("opens what it sealed, and seals the same text differently each time", () => {
    const a = seal(KEY, "sso-client-secret", "s3cret");
    const b = seal(KEY, "sso-client-secret", "s3cret");
    expect(a).not.toBe(b);
    expect(a).not.toContain("s3cret");
    expect(open(KEY, "sso-client-secret", a)).toBe("s3cret");
  });

  it("refuses another key, another purpose and any changed byte", () => {
    const sealed = seal(KEY, "sso-client-secret", "s3cret");
    expect(open("x".repeat(32), "sso-client-secret", sealed)).toBeNull();
    expect(open(KEY, "sso-sign-in", sealed)).toBeNull();
    const parts = sealed.split(".");
    const body = Buffer.from(parts[3]!, "base64url");
    body[0] = body[0]! ^ 1;
    expect(open(KEY, "sso-client-secret", [parts[0], parts[1], parts[2], body.toString("base64url")].join("."))).toBeNull();
    expect(open(KEY, "sso-client-secret", "v1.garbage")).toBeNull();
  });

  it("will not work with a short key", () => {
    expect(() => seal("short", "sso-client-secret", "x")).toThrow(/too short/);
  });
});
