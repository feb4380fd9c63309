import { describe, expect, it } from "vitest";
import { shouldFilter } from "./resize-observer";
import { browserError, browserMessage, config } from "./test-events";

describe("resize-observer filter", () => {
  it("drops 'ResizeObserver loop completed with undelivered notifications.' from window.onerror", () => {
    const event = browserMessage("ResizeObserver loop completed with undelivered notifications.");
    expect(shouldFilter(event, config())).toBe("resize-observer");
  });

  it("drops 'ResizeObserver loop limit exceeded' sent as an exception", () => {
    const event = browserError({ type: "Error", value: "ResizeObserver loop limit exceeded", frames: [] });
    expect(shouldFilter(event, config())).toBe("resize-observer");
  });

  it("ignores case and the 'Uncaught' prefix some browsers add", () => {
    expect(shouldFilter(browserMessage("Uncaught ResizeObserver loop limit exceeded"), config())).toBe("resize-observer");
    expect(shouldFilter(browserMessage("resizeobserver loop limit exceeded"), config())).toBe("resize-observer");
  });

  it("keeps real errors that mention ResizeObserver", () => {
    expect(shouldFilter(browserError({ type: "ReferenceError", value: "ResizeObserver is not defined" }), config())).toBeNull();
    expect(shouldFilter(browserMessage("ResizeObserver loop limit exceeded while measuring cart"), config())).toBeNull();
  });

  it("keeps everything when switched off", () => {
    const event = browserMessage("ResizeObserver loop completed with undelivered notifications.");
    expect(shouldFilter(event, config({ resizeObserver: false }))).toBeNull();
  });
});
