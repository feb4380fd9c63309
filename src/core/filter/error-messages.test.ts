import { describe, expect, it } from "vitest";
import { shouldFilter } from "./error-messages";
import { browserError, browserMessage, config } from "./test-events";

describe("error-messages filter", () => {
  const event = browserError({ type: "TypeError", value: "Cannot read properties of undefined (reading 'total')" });

  it("matches 'Type: value'", () => {
    expect(shouldFilter(event, config({ errorMessages: ["TypeError: *undefined*"] }))).toBe("error-message");
  });

  it("matches the value alone", () => {
    expect(shouldFilter(event, config({ errorMessages: ["Cannot read properties of*"] }))).toBe("error-message");
  });

  it("matches a captured message and a log entry", () => {
    const cfg = config({ errorMessages: ["payment declined*"] });
    expect(shouldFilter(browserMessage("Payment declined for order 42"), cfg)).toBe("error-message");
    expect(shouldFilter({ logentry: { message: "Payment declined for %s", formatted: "Payment declined for 42" } }, cfg)).toBe(
      "error-message",
    );
  });

  it("ignores case", () => {
    expect(shouldFilter(event, config({ errorMessages: ["TYPEERROR: CANNOT*"] }))).toBe("error-message");
  });

  it("lets ? stand for one character only", () => {
    const cfg = config({ errorMessages: ["HTTP 50?"] });
    expect(shouldFilter(browserMessage("HTTP 503"), cfg)).toBe("error-message");
    expect(shouldFilter(browserMessage("HTTP 5030"), cfg)).toBeNull();
  });

  it("matches the whole text, so a bare word needs stars", () => {
    expect(shouldFilter(event, config({ errorMessages: ["undefined"] }))).toBeNull();
    expect(shouldFilter(event, config({ errorMessages: ["*undefined*"] }))).toBe("error-message");
  });

  it("checks every exception of a chain", () => {
    const chained = {
      exception: {
        values: [
          { type: "FetchError", value: "socket hang up" },
          { type: "Error", value: "Checkout failed" },
        ],
      },
    };
    expect(shouldFilter(chained, config({ errorMessages: ["*socket hang up"] }))).toBe("error-message");
  });

  it("keeps everything with no patterns, or only empty ones", () => {
    expect(shouldFilter(event, config())).toBeNull();
    expect(shouldFilter(event, config({ errorMessages: [""] }))).toBeNull();
    expect(shouldFilter(event, config({ errorMessages: ["Network error*"] }))).toBeNull();
  });
});
