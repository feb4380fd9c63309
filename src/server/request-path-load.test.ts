import { describe, expect, it } from "vitest";
import { isRequestPathMessage, RequestPathLoad } from "./request-path-load";

describe("whether the request path is busy", () => {
  it("turns busy above the upper mark and idle again only below the lower one", () => {
    const load = new RequestPathLoad(0.5, 0.3);
    expect(load.update(0.2)).toBeNull();
    expect(load.update(0.5)).toBeNull();
    expect(load.update(0.9)).toBe(true);
    expect(load.update(0.4)).toBeNull();
    expect(load.update(0.95)).toBeNull();
    expect(load.update(0.29)).toBe(false);
    expect(load.update(0.45)).toBeNull();
    expect(load.update(0.51)).toBe(true);
  });

  it("knows its message", () => {
    expect(isRequestPathMessage({ type: "request-path", busy: true })).toBe(true);
    expect(isRequestPathMessage({ type: "request-path", busy: "yes" })).toBe(false);
    expect(isRequestPathMessage("wake")).toBe(false);
  });
});
