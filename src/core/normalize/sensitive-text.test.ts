import { describe, expect, it } from "vitest";
import { withoutBlowUp } from "../../../test/support/blow-up";
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
const sensitive = (key: string): boolean => /pass|token|secret|auth/i.test(key);

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
  const kv = (text: string, counter: Counter): string => scrubKeyValues(text, sensitive, counter);
  const code = (text: string, counter: Counter): string => scrubKeyValues(text, sensitive, counter, "=");

  it("filters values of sensitive keys in query strings and cookie strings", () => {
    expect(run(kv, "/cb?code=1&access_token=abc&state=x")).toEqual([`/cb?code=1&access_token=${F}&state=x`, 1]);
    expect(run(kv, "'pass=abc; lang=en'")).toEqual([`'pass=${F}; lang=en'`, 1]);
  });

  it("keeps values of other keys", () => {
    expect(run(kv, "a=1&b=2")).toEqual(["a=1&b=2", 0]);
  });

  it.each([
    ["login failed password=hunter2", `login failed password=${F}`],
    ["login failed password: hunter2", `login failed password: ${F}`],
    ["Password:hunter2 rejected", `Password:${F} rejected`],
    ["secret = s3cr3t", `secret = ${F}`],
    ['{"user":"ada","password":"hunter 2"}', `{"user":"ada","password":"${F}"}`],
    ["token='abc def' next", `token='${F}' next`],
    ['token="unclosed value', `token="${F} value`],
    ["Authorization: Basic dXNlcjpwYXNz", `Authorization: Basic ${F}`],
    ["Authorization: Basic secret", `Authorization: Basic ${F}`],
    ["auth: dXNlcjpwYXNz declined", `auth: ${F} declined`],
    ["auth=payment", `auth=${F}`],
    ['auth: "payment"', `auth: "${F}"`],
  ])("filters the value in %j", (text, expected) => {
    expect(run(kv, text)).toEqual([expected, 1]);
  });

  it.each([
    "password reset email sent",
    "the password field is required",
    "token count 12",
    "password: ",
    "if (token == null) return",
    "tokens => x",
    "password=%s",
    "see https://example.com/token/abc",
    "retry at 10:30, api: v2",
    // A label then a word is prose: only values that look like secrets are filtered.
    "auth: payment declined by gateway",
    "Auth: Payment declined",
    "token: expired, please sign in again",
    "AUTH: DECLINED",
    "secret: well-known",
  ])("keeps %j", (text) => {
    expect(run(kv, text)).toEqual([text, 0]);
  });

  it("reads only `=` in source lines, where `name: Type` is an annotation", () => {
    expect(run(code, "function login(password: string) {")).toEqual(["function login(password: string) {", 0]);
    expect(run(code, 'const password = "hunter2";')).toEqual([`const password = "${F}";`, 1]);
  });
});

describe("scrubText", () => {
  it("keeps the scheme and the bearer rule's marker after `Authorization:`", () => {
    expect(run((t: string, c: Counter) => scrubText(t, sensitive, c), "sent Authorization: Bearer abcdef123456.xyz ok")).toEqual([
      `sent Authorization: Bearer ${F} ok`,
      1,
    ]);
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
    "password: ".repeat(40_000),
    'password="'.repeat(40_000),
    "'" + "password='".repeat(400) + "x".repeat(100_000),
    "Authorization: Basic ".repeat(20_000),
  ];

  it.each(hostile.map((text, i) => [i, text]))("scans hostile input %i in linear time", (_i, text) => {
    expect(typeof withoutBlowUp(() => scrubText(text, sensitive, { count: 0 }))).toBe("string");
  });
});
