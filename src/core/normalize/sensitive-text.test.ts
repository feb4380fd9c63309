import { describe, expect, it } from "vitest";
import {
  type Counter,
  luhnValid,
  scrubBearerTokens,
  scrubCardNumbers,
  scrubKeyValues,
  scrubPrivateKeys,
  scrubText,
  scrubUrlPasswords,
} from "./sensitive-text";

const F = "[Filtered]";
const sensitive = (key: string): boolean => /pass|token|secret/i.test(key);

function run<T extends unknown[]>(fn: (text: string, ...rest: [...T, Counter]) => string, text: string, ...rest: T): [string, number] {
  const counter = { count: 0 };
  const out = fn(text, ...rest, counter);
  return [out, counter.count];
}

describe("luhnValid", () => {
  it("accepts test card numbers and rejects a changed digit", () => {
    expect(luhnValid("4111111111111111")).toBe(true);
    expect(luhnValid("378282246310005")).toBe(true);
    expect(luhnValid("4111111111111112")).toBe(false);
  });
});

describe("scrubCardNumbers", () => {
  it.each([
    ["4111111111111111", "Visa"],
    ["4111 1111 1111 1111", "Visa with spaces"],
    ["5500-0000-0000-0004", "Mastercard with dashes"],
    ["2223003122003222", "Mastercard 2-series"],
    ["3782 822463 10005", "Amex 4-6-5"],
    ["6011111111111117", "Discover"],
  ])("filters %s (%s)", (card) => {
    expect(run(scrubCardNumbers, `pay ${card}.`)).toEqual([`pay ${F}.`, 1]);
  });

  it.each([
    ["4111111111111112", "invalid checksum"],
    ["1234567890123456", "no card prefix"],
    ["1795331379614", "a millisecond timestamp"],
    ["41111111111111111111", "too many digits"],
    ["4111 1111-1111 1111", "mixed separators"],
    ["41 11111111111111", "groups not as printed"],
    ["id4111111111111111", "inside a word"],
    ["0af7651916cd43dd8448eb211c80319c", "a hex trace id"],
  ])("keeps %s (%s)", (text) => {
    expect(run(scrubCardNumbers, text)).toEqual([text, 0]);
  });

  it("filters every card in a text", () => {
    expect(run(scrubCardNumbers, "a 4111111111111111 b 5500000000000004 c")).toEqual([`a ${F} b ${F} c`, 2]);
  });
});

describe("scrubPrivateKeys", () => {
  it("filters the body of each private key and keeps public keys", () => {
    const text = [
      "-----BEGIN PUBLIC KEY-----\nAAA\n-----END PUBLIC KEY-----",
      "-----BEGIN EC PRIVATE KEY-----\nBBB\n-----END EC PRIVATE KEY-----",
      "-----BEGIN OPENSSH PRIVATE KEY-----\nCCC\n-----END OPENSSH PRIVATE KEY-----",
    ].join("\n");
    const [out, count] = run(scrubPrivateKeys, text);
    expect(out).toContain("-----BEGIN PUBLIC KEY-----\nAAA\n");
    expect(out).toContain(`-----BEGIN EC PRIVATE KEY-----${F}-----END EC PRIVATE KEY-----`);
    expect(out).toContain(`-----BEGIN OPENSSH PRIVATE KEY-----${F}-----END OPENSSH PRIVATE KEY-----`);
    expect(count).toBe(2);
  });

  it("filters to the end of a key cut off before its END line", () => {
    expect(run(scrubPrivateKeys, "x -----BEGIN PRIVATE KEY-----\nMIIE…")).toEqual([`x -----BEGIN PRIVATE KEY-----${F}`, 1]);
  });
});

describe("scrubBearerTokens", () => {
  it("filters the token after Bearer, in any case", () => {
    expect(run(scrubBearerTokens, "Authorization: bearer eyJhbGciOi.abc-def_ghi=")).toEqual([`Authorization: bearer ${F}`, 1]);
  });

  it("keeps prose that merely mentions a bearer", () => {
    expect(run(scrubBearerTokens, "the bearer of bad news")).toEqual(["the bearer of bad news", 0]);
  });
});

describe("scrubUrlPasswords", () => {
  it("filters the password of a URL and keeps the user and host", () => {
    expect(run(scrubUrlPasswords, "redis://default:hunter2@cache:6379/0 and https://example.com/a@b")).toEqual([
      `redis://default:${F}@cache:6379/0 and https://example.com/a@b`,
      1,
    ]);
  });
});

describe("scrubKeyValues", () => {
  it("filters values of sensitive keys in query strings and cookie strings", () => {
    expect(run(scrubKeyValues, "/cb?code=1&access_token=abc&state=x", sensitive)).toEqual([`/cb?code=1&access_token=${F}&state=x`, 1]);
    expect(run(scrubKeyValues, "'pass=abc; lang=en'", sensitive)).toEqual([`'pass=${F}; lang=en'`, 1]);
  });

  it("keeps values of other keys", () => {
    expect(run(scrubKeyValues, "a=1&b=2", sensitive)).toEqual(["a=1&b=2", 0]);
  });
});

describe("scrubText speed", () => {
  // Each input defeats a naive regex; the scanners must stay linear (well under a second).
  const hostile = [
    "=".repeat(200_000),
    "token=".repeat(50_000),
    "4".repeat(200_000),
    "4 ".repeat(100_000),
    "-----BEGIN ".repeat(20_000),
    "a://".repeat(50_000) + "@",
    "bearer ".repeat(40_000),
    "x:".repeat(100_000) + "//a:b",
  ];

  it.each(hostile.map((text, i) => [i, text]))("scans hostile input %i in linear time", (_i, text) => {
    const started = performance.now();
    scrubText(text, sensitive, { count: 0 });
    expect(performance.now() - started).toBeLessThan(1000);
  });
});
