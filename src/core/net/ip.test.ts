import { describe, expect, it } from "vitest";
import { inCidr, parseCidr, parseIp, throttleKey, type Cidr, type Ip } from "./ip";

const ip = (text: string): Ip => parseIp(text) ?? expect.unreachable(`not an address: ${text}`);
const cidr = (text: string): Cidr => parseCidr(text) ?? expect.unreachable(`not a range: ${text}`);

describe("parseIp", () => {
  it.each([
    ["192.0.2.1", "192.0.2.1"],
    [" 192.0.2.1 ", "192.0.2.1"],
    ["192.0.2.1:51234", "192.0.2.1"],
    ["2001:DB8::1", "2001:db8::1"],
    ["[2001:db8::1]:443", "2001:db8::1"],
    ["fe80::1%eth0", "fe80::1"],
    ["::ffff:192.0.2.1", "192.0.2.1"],
    ["::ffff:c000:201", "192.0.2.1"],
    ["2001:db8:0:0:1:0:0:1", "2001:db8::1:0:0:1"],
    ["::", "::"],
  ])("reads %j as %s", (raw, text) => {
    expect(parseIp(raw)?.text).toBe(text);
  });

  it.each(["", "unknown", "_hidden", "300.1.1.1", "1.2.3", "2001:db8::g", "192.0.2.1, 192.0.2.2", "unix:/tmp/sock"])(
    "refuses %j",
    (raw) => {
      expect(parseIp(raw)).toBeNull();
    },
  );
});

describe("inCidr", () => {
  it.each([
    ["10.1.2.3", "10.0.0.0/8", true],
    ["11.0.0.1", "10.0.0.0/8", false],
    ["172.31.255.255", "172.16.0.0/12", true],
    ["172.32.0.0", "172.16.0.0/12", false],
    ["192.0.2.7", "192.0.2.7", true],
    ["192.0.2.8", "192.0.2.7", false],
    ["::ffff:10.0.0.1", "10.0.0.0/8", true],
    ["10.0.0.1", "::ffff:10.0.0.0/104", true],
    ["2001:db8:1::5", "2001:db8::/32", true],
    ["2001:db9::5", "2001:db8::/32", false],
    ["fd12::1", "fc00::/7", true],
    ["10.0.0.1", "::/0", false],
    ["2001:db8::1", "0.0.0.0/0", false],
    ["8.8.8.8", "0.0.0.0/0", true],
  ])("%s in %s: %s", (address, range, inside) => {
    expect(inCidr(ip(address), cidr(range))).toBe(inside);
  });

  it.each(["10.0.0.0/33", "2001:db8::/129", "10.0.0.0/8/8", "10.0.0.0/x", "[::1]/128", "nonsense/8", ""])(
    "refuses the range %j",
    (range) => {
      expect(parseCidr(range)).toBeNull();
    },
  );
});

describe("throttleKey", () => {
  it("names an IPv4 client by its address and an IPv6 client by its /64", () => {
    expect(throttleKey("192.0.2.1")).toBe("192.0.2.1");
    expect(throttleKey("::ffff:192.0.2.1")).toBe("192.0.2.1");
    expect(throttleKey("2001:db8:1:2:aaaa::1")).toBe("2001:db8:1:2::/64");
    expect(throttleKey("2001:db8:1:2:ffff:ffff:ffff:ffff")).toBe("2001:db8:1:2::/64");
    expect(throttleKey("unknown")).toBe("unknown");
  });
});
