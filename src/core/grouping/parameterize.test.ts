import { describe, expect, it } from "vitest";
import { withoutBlowUp } from "../../../test/support/blow-up";
import { normalizeMessage, parameterize, trimMessage } from "./parameterize";

describe("parameterize", () => {
  it("groups 'User 123 not found' with 'User 456 not found'", () => {
    expect(parameterize("User 123 not found")).toBe("User <int> not found");
    expect(parameterize("User 456 not found")).toBe(parameterize("User 123 not found"));
  });

  it.each([
    ["took 3.25 seconds", "took <float> seconds"],
    ["negative -42 offset", "negative <int> offset"],
    ["pointer 0xdeadbeef freed", "pointer <hex> freed"],
    ["object 7f3a9c2e1b missing", "object <hex> missing"],
    ["commit 3f786850e387550fdab836ed7e6dc881de23001b", "commit <sha1>"],
    ["etag 9e107d9d372bb6826bd81d3542a419d6", "etag <md5>"],
    ["job 550e8400-e29b-41d4-a716-446655440000 failed", "job <uuid> failed"],
    ["request req-550e8400-e29b-41d4-a716-446655440000 failed", "request req-<uuid> failed"],
    ["from 10.0.0.7 and 192.168.1.20:8080", "from <ip> and <ip>"],
    ["peer fe80::1ff:fe23:4567:890a down", "peer <ip> down"],
    ["at 2024-03-01T10:00:00Z", "at <date>"],
    ["at 2024-03-01T10:00:00.123+02:00 again", "at <date> again"],
    ["on 2024-03-01 10:00:00", "on <date> <date>"],
    ["mail ada@example.com bounced", "mail <email> bounced"],
    ["GET https://api.example.com/v1/users?id=3 failed", "GET <url> failed"],
    ["cannot reach db-3.eu.example.com", "cannot reach <hostname>"],
    ["timeout after 30000ms", "timeout after <duration>"],
    ["retry in 1.5s", "retry in <duration>"],
    ["KeyError: 'missing key'", "KeyError: <quoted_str>"],
    ['unknown command "deploy now"', "unknown command <quoted_str>"],
    ["GET /api/users/123/orders", "GET /api/users/<int>/orders"],
    ["bad id=42, flag=true", "bad id=<int>, flag=<bool>"],
    ["worker retry-3 (attempt 4/5)", "worker retry-<int> (attempt <int>/<int>)"],
    ["trace 00-0af7651916cd43dd8448eb211c80319c-b7ad6b7169203331-01", "trace <traceparent>"],
    ["order #9931 failed.", "order #<int> failed."],
  ])("%s", (input, expected) => {
    expect(parameterize(input)).toBe(expected);
  });

  it.each([
    "don't stop",
    "Cannot read properties of undefined",
    "file index.js not found",
    "user_123 is reserved",
    "base64 encoding",
    "main.py failed",
    "std::vector overflow",
  ])("leaves %j alone", (input) => {
    expect(parameterize(input)).toBe(input);
  });

  it("keeps whitespace as it was", () => {
    expect(parameterize("a  1\tb")).toBe("a  <int>\tb");
  });
});

describe("trimMessage", () => {
  it("keeps the first two non-empty lines and marks the rest with ...", () => {
    expect(trimMessage("\n  first\n\nsecond  \nthird\n")).toBe("first\nsecond...");
    expect(trimMessage("only\n")).toBe("only");
  });

  it("caps the length", () => {
    expect(trimMessage("x".repeat(5000))).toHaveLength(1024);
  });

  it("normalizes multi-line messages line by line", () => {
    expect(normalizeMessage("Order 5 failed\ncode 17\nstack...")).toBe("Order <int> failed\ncode <int>...");
  });
});

describe("parameterize on hostile input", () => {
  it.each([
    ["quotes", "'a ".repeat(40_000)],
    ["digits and dots", "1.".repeat(50_000)],
    ["one long word", "a1-b2.c3@d4:".repeat(20_000)],
    ["uuid-like", "550e8400-e29b-41d4-a716-".repeat(10_000)],
    ["colons", ":a".repeat(50_000)],
  ])("ends without a blow-up on %s", (_name, input) => {
    expect(typeof withoutBlowUp(() => parameterize(input))).toBe("string");
  });
});
