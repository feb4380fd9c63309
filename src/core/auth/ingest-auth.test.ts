import { describe, expect, it } from "vitest";
import { findPublicKey, parseSentryAuthHeader } from "./ingest-auth";

const KEY = "0123456789abcdef0123456789abcdef";
const OTHER = "ffffffffffffffffffffffffffffffff";
const noQuery = new URLSearchParams();

describe("parseSentryAuthHeader", () => {
  it("reads the comma-separated fields after 'Sentry', trimming spaces", () => {
    const fields = parseSentryAuthHeader(`Sentry sentry_version=7, sentry_client=sentry.javascript.browser/11.1.0,sentry_key=${KEY}`);
    expect(fields).toEqual(
      new Map([
        ["sentry_version", "7"],
        ["sentry_client", "sentry.javascript.browser/11.1.0"],
        ["sentry_key", KEY],
      ]),
    );
  });

  it("matches the scheme and field names case-insensitively", () => {
    expect(parseSentryAuthHeader(`sentry Sentry_Key=${KEY}`)?.get("sentry_key")).toBe(KEY);
  });

  it("returns null for another scheme", () => {
    expect(parseSentryAuthHeader(`Bearer ${KEY}`)).toBeNull();
  });
});

describe("findPublicKey", () => {
  it("finds the key in X-Sentry-Auth", () => {
    expect(findPublicKey({ xSentryAuth: `Sentry sentry_version=7, sentry_key=${KEY}`, query: noQuery })).toEqual({
      ok: true,
      publicKey: KEY,
    });
  });

  it("finds the key in an 'Authorization: Sentry' header", () => {
    expect(findPublicKey({ authorization: `Sentry sentry_key=${KEY}`, query: noQuery })).toEqual({ ok: true, publicKey: KEY });
  });

  it("finds the key in the sentry_key query parameter", () => {
    expect(findPublicKey({ query: new URLSearchParams({ sentry_version: "7", sentry_key: KEY }) })).toEqual({ ok: true, publicKey: KEY });
  });

  it("finds the key and the project id in the envelope header's DSN", () => {
    expect(findPublicKey({ query: noQuery, envelopeDsn: `https://${KEY}@example.com/42` })).toEqual({
      ok: true,
      publicKey: KEY,
      projectId: "42",
    });
  });

  it("accepts the same key given in several places", () => {
    expect(
      findPublicKey({
        xSentryAuth: `Sentry sentry_key=${KEY}`,
        query: new URLSearchParams({ sentry_key: KEY }),
        envelopeDsn: `https://${KEY}@example.com/42`,
      }),
    ).toEqual({ ok: true, publicKey: KEY, projectId: "42" });
  });

  it("refuses differing keys in several places", () => {
    expect(findPublicKey({ xSentryAuth: `Sentry sentry_key=${KEY}`, query: new URLSearchParams({ sentry_key: OTHER }) })).toEqual({
      ok: false,
      reason: "multiple authorization payloads detected",
    });
    expect(findPublicKey({ query: new URLSearchParams({ sentry_key: KEY }), envelopeDsn: `https://${OTHER}@example.com/42` })).toEqual({
      ok: false,
      reason: "multiple authorization payloads detected",
    });
  });

  it("reports missing authorization when no source names a key", () => {
    expect(findPublicKey({ query: noQuery })).toEqual({ ok: false, reason: "missing authorization information" });
  });

  it("ignores an Authorization header of another scheme", () => {
    expect(findPublicKey({ authorization: "Bearer tlt_abc", query: noQuery })).toEqual({
      ok: false,
      reason: "missing authorization information",
    });
  });

  it("refuses an X-Sentry-Auth header without sentry_key", () => {
    expect(findPublicKey({ xSentryAuth: "Sentry sentry_version=7", query: new URLSearchParams({ sentry_key: KEY }) })).toEqual({
      ok: false,
      reason: "bad x-sentry-auth header",
    });
  });

  it("refuses an envelope header DSN that is not a DSN", () => {
    expect(findPublicKey({ query: noQuery, envelopeDsn: "not a dsn" })).toEqual({
      ok: false,
      reason: "bad envelope authentication header",
    });
  });
});
