import { describe, expect, it } from "vitest";
import { addressRefusal } from "./address-policy";

describe("the addresses an alert webhook may reach", () => {
  it("refuses loopback, private, link-local, unique-local, CGNAT, multicast and unspecified addresses", () => {
    expect(addressRefusal("127.0.0.1")).toBe("127.0.0.1 is a loopback address");
    expect(addressRefusal("127.255.1.2")).toBe("127.255.1.2 is a loopback address");
    expect(addressRefusal("::1")).toBe("::1 is an unspecified, loopback or IPv4-compatible address");
    expect(addressRefusal("0.0.0.0")).toBe("0.0.0.0 is an unspecified ('this network') address");
    expect(addressRefusal("::")).toMatch(/unspecified/);
    for (const a of ["10.1.2.3", "172.16.0.1", "172.31.255.255", "192.168.1.10"])
      expect(addressRefusal(a)).toBe(`${a} is a private address`);
    expect(addressRefusal("169.254.169.254")).toBe("169.254.169.254 is a link-local address");
    expect(addressRefusal("fe80::1")).toBe("fe80::1 is a link-local address");
    expect(addressRefusal("fd12:3456::1")).toBe("fd12:3456::1 is a unique-local address");
    expect(addressRefusal("100.100.0.1")).toBe("100.100.0.1 is a carrier-grade NAT address");
    expect(addressRefusal("224.0.0.251")).toBe("224.0.0.251 is a multicast address");
    expect(addressRefusal("ff02::1")).toBe("ff02::1 is a multicast address");
  });

  it("sees through IPv4-mapped and NAT64 IPv6 spellings of a private address", () => {
    expect(addressRefusal("::ffff:127.0.0.1")).toBe("127.0.0.1 is a loopback address");
    expect(addressRefusal("::ffff:a9fe:a9fe")).toBe("169.254.169.254 is a link-local address");
    expect(addressRefusal("64:ff9b::10.0.0.1")).toBe("64:ff9b::a00:1 is a private address");
  });

  it("lets public addresses through, next to the edges of the refused ranges", () => {
    for (const a of ["93.184.216.34", "172.32.0.1", "100.128.0.1", "11.0.0.1", "2606:4700::1111", "64:ff9b::8.8.8.8", "1.1.1.1"])
      expect(addressRefusal(a)).toBeNull();
  });

  it("refuses what is not an address", () => {
    expect(addressRefusal("example.com")).toBe("example.com is not an IP address");
  });
});
