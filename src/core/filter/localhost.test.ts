import { describe, expect, it } from "vitest";
import { shouldFilter } from "./localhost";
import { browserError, config } from "./test-events";

const on = config({ localhost: true });

describe("localhost filter", () => {
  it("is off by default for new projects", () => {
    expect(shouldFilter(browserError({ url: "http://localhost:3000/" }), config())).toBeNull();
  });

  it("drops a localhost page's event once switched on", () => {
    expect(shouldFilter(browserError({ url: "http://localhost:3000/" }), on)).toBe("localhost");
  });

  it.each(["127.0.0.1", "::1", "::ffff:127.0.0.1"])("drops events from user IP %s", (ip) => {
    expect(shouldFilter({ ...browserError(), user: { ip_address: ip } }, on)).toBe("localhost");
  });

  it.each([
    "http://localhost:3000/checkout",
    "http://LOCALHOST/",
    "http://localhost./",
    "http://127.0.0.1:8000/api/test",
    "http://[::1]:8080/",
    "https://shop.localhost:5173/cart",
  ])("drops events from page %s", (url) => {
    expect(shouldFilter(browserError({ url }), on)).toBe("localhost");
  });

  it("keeps hosts that only look local", () => {
    for (const url of ["https://localhost.example.com/", "https://mylocalhost.dev/", "http://10.0.0.5/", "https://shop.example.com/"]) {
      expect(shouldFilter(browserError({ url }), on)).toBeNull();
    }
    expect(shouldFilter({ user: { ip_address: "10.1.2.3" } }, on)).toBeNull();
    expect(shouldFilter({ user: { ip_address: "{{auto}}" } }, on)).toBeNull();
  });

  it("keeps events whose URL does not parse", () => {
    expect(shouldFilter({ request: { url: "localhost:3000 is not a URL" } }, on)).toBeNull();
  });
});
