import { describe, expect, it } from "vitest";
import { parseTrustProxy, resolveClientIp, type TrustProxy } from "./client-ip";

const trust = (value: string): TrustProxy => parseTrustProxy(value) ?? expect.unreachable(`bad setting: ${value}`);
const client = (peer: string, xff: string | undefined, setting: string) => resolveClientIp(peer, xff, trust(setting));

describe("parseTrustProxy", () => {
  it.each([
    ["false", { kind: "none" }],
    ["no", { kind: "none" }],
    ["0", { kind: "none" }],
    ["true", { kind: "hops", hops: 1 }],
    ["1", { kind: "hops", hops: 1 }],
    ["3", { kind: "hops", hops: 3 }],
  ])("reads %j", (value, parsed) => {
    expect(parseTrustProxy(value)).toEqual(parsed);
  });

  it("reads a list of addresses and ranges", () => {
    expect(parseTrustProxy("10.0.0.0/8, 192.0.2.1 ,fd00::/8")).toMatchObject({
      kind: "ranges",
      ranges: [
        { version: 4, prefix: 8 },
        { version: 4, prefix: 32 },
        { version: 6, prefix: 8 },
      ],
    });
  });

  it.each(["maybe", "10.0.0.0/8,", "10.0.0.0/8,garbage", "-1", "1.5"])("refuses %j", (value) => {
    expect(parseTrustProxy(value)).toBeNull();
  });
});

describe("resolveClientIp", () => {
  it("uses the socket peer and ignores X-Forwarded-For when no proxy is trusted", () => {
    expect(client("203.0.113.9", "198.51.100.1", "false")).toEqual({ ip: "203.0.113.9", viaTrustedProxy: false });
    expect(client("::ffff:203.0.113.9", undefined, "false").ip).toBe("203.0.113.9");
  });

  it("takes the right-most entry behind one hop, not the left-most the client wrote", () => {
    expect(client("10.0.0.2", "6.6.6.6, 198.51.100.1", "true")).toEqual({ ip: "198.51.100.1", viaTrustedProxy: true });
  });

  it("skips as many entries as there are hops", () => {
    expect(client("10.0.0.2", "6.6.6.6, 198.51.100.1, 10.0.0.1", "2").ip).toBe("198.51.100.1");
    expect(client("10.0.0.2", "7.7.7.7, 6.6.6.6, 198.51.100.1, 10.0.0.5, 10.0.0.1", "3").ip).toBe("198.51.100.1");
  });

  it("gives the left-most entry when there are fewer entries than hops", () => {
    expect(client("10.0.0.2", "198.51.100.1", "3").ip).toBe("198.51.100.1");
    expect(client("10.0.0.2", undefined, "2").ip).toBe("10.0.0.2");
  });

  it("skips the trusted IPv4 and IPv6 ranges from the right and stops at the first other address", () => {
    const setting = "10.0.0.0/8, 2001:db8:ffff::/48";
    expect(client("10.0.0.2", "6.6.6.6, 198.51.100.1, 10.9.9.9", setting).ip).toBe("198.51.100.1");
    expect(client("2001:db8:ffff::2", "6.6.6.6, 2001:db8:1::7, 2001:db8:ffff::1", setting).ip).toBe("2001:db8:1::7");
    // A client that writes a trusted address into the header cannot hide behind it: it is left of the real entry.
    expect(client("10.0.0.2", "10.1.1.1, 198.51.100.1", setting).ip).toBe("198.51.100.1");
  });

  it("believes nothing from a peer outside the trusted ranges", () => {
    expect(client("198.51.100.1", "6.6.6.6", "10.0.0.0/8")).toEqual({ ip: "198.51.100.1", viaTrustedProxy: false });
  });

  it("stops at the proxy that wrote an entry that is no address", () => {
    expect(client("10.0.0.2", "198.51.100.1, unknown", "true").ip).toBe("10.0.0.2");
    expect(client("10.0.0.2", "198.51.100.1, _hidden, 10.0.0.1", "10.0.0.0/8").ip).toBe("10.0.0.1");
  });

  it("reads entries with ports and brackets, and skips empty ones", () => {
    expect(client("10.0.0.2", "6.6.6.6,, [2001:db8::5]:443 ", "true").ip).toBe("2001:db8::5");
    expect(client("10.0.0.2", "198.51.100.1:5000", "true").ip).toBe("198.51.100.1");
  });

  it("gives the left-most address when every entry is a trusted proxy", () => {
    expect(client("10.0.0.2", "10.0.0.3, 10.0.0.1", "10.0.0.0/8").ip).toBe("10.0.0.3");
  });
});
