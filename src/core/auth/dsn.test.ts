import { describe, expect, it } from "vitest";
import { buildDsn, envelopeUrl, parseDsn, unreachableDsnHost } from "./dsn";

const KEY = "0123456789abcdef0123456789abcdef";
const SECRET = "fedcba9876543210fedcba9876543210";

describe("buildDsn", () => {
  it("puts the public key before the host and the project id last", () => {
    expect(buildDsn("https://errors.example.com", KEY, 7)).toBe(`https://${KEY}@errors.example.com/7`);
  });

  it("keeps a non-default port", () => {
    expect(buildDsn("http://telltale.test:8000", KEY, "12")).toBe(`http://${KEY}@telltale.test:8000/12`);
  });

  it("keeps a path prefix without doubling its slash", () => {
    expect(buildDsn("https://example.com/telltale/", KEY, 3)).toBe(`https://${KEY}@example.com/telltale/3`);
  });

  it("adds the secret key after a colon when given", () => {
    expect(buildDsn("https://example.com", KEY, 3, SECRET)).toBe(`https://${KEY}:${SECRET}@example.com/3`);
  });
});

describe("parseDsn", () => {
  it("reads every part of a DSN with a port and a path prefix", () => {
    expect(parseDsn(`https://${KEY}@example.com:9000/sub/path/42`)).toEqual({
      protocol: "https",
      publicKey: KEY,
      host: "example.com:9000",
      path: "/sub/path",
      projectId: "42",
    });
  });

  it("reads the secret key of a legacy DSN", () => {
    expect(parseDsn(`http://${KEY}:${SECRET}@localhost/1`)).toMatchObject({ publicKey: KEY, secretKey: SECRET, path: "", projectId: "1" });
  });

  it("reads a bracketed IPv6 host", () => {
    expect(parseDsn(`http://${KEY}@[::1]:8000/5`)).toMatchObject({ host: "[::1]:8000", projectId: "5" });
  });

  it("accepts a trailing slash and surrounding whitespace", () => {
    expect(parseDsn(`  https://${KEY}@example.com/5/ \n`)).toMatchObject({ host: "example.com", projectId: "5" });
  });

  it("round-trips what buildDsn produces", () => {
    const dsn = buildDsn("http://telltale.test:8000/prefix", KEY, 99);
    expect(parseDsn(dsn)).toEqual({ protocol: "http", publicKey: KEY, host: "telltale.test:8000", path: "/prefix", projectId: "99" });
  });

  it.each([
    ["no key", "https://example.com/1"],
    ["no project id", `https://${KEY}@example.com/`],
    ["a non-numeric project id", `https://${KEY}@example.com/abc`],
    ["another protocol", `ftp://${KEY}@example.com/1`],
    ["not a URL", "off"],
  ])("returns null for %s", (_what, dsn) => {
    expect(parseDsn(dsn)).toBeNull();
  });
});

describe("envelopeUrl", () => {
  it("is the project's envelope endpoint below the DSN's host and prefix", () => {
    const dsn = parseDsn(`https://${KEY}@example.com:9000/telltale/42`);
    expect(dsn).not.toBeNull();
    expect(envelopeUrl(dsn!)).toBe("https://example.com:9000/telltale/api/42/envelope/");
  });
});

describe("unreachableDsnHost", () => {
  it("names the address the browser used when the DSN names localhost and the browser came from elsewhere", () => {
    expect(unreachableDsnHost("http://localhost:8000", "192.168.1.20:8000")).toBe("192.168.1.20:8000");
    expect(unreachableDsnHost("http://127.0.0.1:8000", "Telltale.Lan:8000")).toBe("telltale.lan:8000");
  });

  it("says nothing when both are loopback, the DSN host is public, or the Host header is not a host", () => {
    expect(unreachableDsnHost("http://localhost:8000", "localhost:8000")).toBeNull();
    expect(unreachableDsnHost("http://localhost:8000", "127.0.0.1:8000")).toBeNull();
    expect(unreachableDsnHost("http://localhost:8000", "[::1]:8000")).toBeNull();
    expect(unreachableDsnHost("https://errors.example.com", "192.168.1.20:8000")).toBeNull();
    expect(unreachableDsnHost("http://localhost:8000", null)).toBeNull();
    expect(unreachableDsnHost("http://localhost:8000", "<script>:1")).toBeNull();
    expect(unreachableDsnHost("http://localhost:8000", "a b")).toBeNull();
  });
});
