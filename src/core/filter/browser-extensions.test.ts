import { describe, expect, it } from "vitest";
import { EXTENSION_MESSAGE_MARKERS, shouldFilter } from "./browser-extensions";
import { APP_SCRIPT, browserError, browserMessage, config } from "./test-events";

describe("browser-extensions filter", () => {
  it.each([
    ["TypeError", "Cannot read properties of undefined (reading 'top.GLOBALS')"],
    ["TypeError", "originalCreateNotification is not a function"],
    ["TypeError", "canvas.contentDocument is null"],
    ["ReferenceError", "MyApp_RemoveAllHighlights is not defined"],
    ["ReferenceError", "Can't find variable: ZiteReader"],
    ["ReferenceError", "jigsaw is not defined"],
    ["ReferenceError", "ComboSearch is not defined"],
    ["ReferenceError", "atomicFindClose is not defined"],
    ["Error", "fb_xd_fragment"],
    ["ReferenceError", "bmi_SafeAddOnload is not defined"],
    ["ReferenceError", "EBCallBackMessageReceived is not defined"],
    ["ReferenceError", "conduitPage is not defined"],
    ["Error", "Extension context invalidated."],
    ["TypeError", "can't access dead object"],
    ["TypeError", "undefined is not an object (evaluating 'webkit-masked-url://hidden/')"],
  ])("drops %s: %s", (type, value) => {
    expect(shouldFilter(browserError({ type, value }), config())).toBe("browser-extensions");
  });

  it("knows every documented marker, in any case", () => {
    for (const marker of EXTENSION_MESSAGE_MARKERS) {
      expect(shouldFilter(browserMessage(`boom: ${marker.toUpperCase()}`), config())).toBe("browser-extensions");
    }
  });

  it.each([
    "chrome-extension://cjpalhdlnbpafiamejdnhcphjbkeiagm/js/contentscript.js",
    "moz-extension://2b5b2d2e-0d6a-4c4e-9a1e-1f7f1f3c9d11/content.js",
    "safari-extension://com.example.adblock-0000000000/script.js",
    "safari-web-extension://E2B9C3B6-8F5A-4C3B-9E8C-1D2F3A4B5C6D/content.js",
    "webkit-masked-url://hidden/",
    "chrome://browser/content/",
    "https://connect.facebook.net/en_US/sdk.js",
    "https://fscr.kaspersky-labs.com/B-9B72-7B7/main.js",
  ])("drops an error thrown from %s", (url) => {
    const event = browserError({
      frames: [
        { filename: APP_SCRIPT, function: "onClick", lineno: 1, colno: 10 },
        { filename: url, function: "inject", lineno: 12, colno: 3 },
      ],
    });
    expect(shouldFilter(event, config())).toBe("browser-extensions");
  });

  it("looks past <anonymous> and [native code] frames to the script that threw", () => {
    const event = browserError({
      frames: [
        { filename: "chrome-extension://abc/content.js", function: "hook", lineno: 1, colno: 1 },
        { filename: "<anonymous>", function: "eval", lineno: 1, colno: 1 },
        { filename: "[native code]", function: "forEach", lineno: 0, colno: 0 },
      ],
    });
    expect(shouldFilter(event, config())).toBe("browser-extensions");
  });

  it("keeps an app error whose stack merely passes through an extension", () => {
    const event = browserError({
      frames: [
        { filename: "chrome-extension://abc/content.js", function: "wrappedListener", lineno: 1, colno: 1 },
        { filename: APP_SCRIPT, function: "onClick", lineno: 1, colno: 10 },
      ],
    });
    expect(shouldFilter(event, config())).toBeNull();
  });

  it("keeps look-alikes from the app itself", () => {
    expect(shouldFilter(browserError({ type: "ReferenceError", value: "GLOBALS is not defined" }), config())).toBeNull();
    expect(shouldFilter(browserError({ value: "contentDocument is null" }), config())).toBeNull();
    const ownScript = browserError({
      frames: [{ filename: "https://shop.example.com/chrome-extension-guide.js", function: "x", lineno: 4, colno: 2 }],
    });
    expect(shouldFilter(ownScript, config())).toBeNull();
    expect(shouldFilter(browserError(), config())).toBeNull();
  });

  it("keeps everything when switched off", () => {
    const event = browserError({ value: "Extension context invalidated." });
    expect(shouldFilter(event, config({ browserExtensions: false }))).toBeNull();
  });
});
