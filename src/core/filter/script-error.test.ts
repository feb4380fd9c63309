import { describe, expect, it } from "vitest";
import { shouldFilter } from "./script-error";
import { ALL_OFF, APP_SCRIPT, CDN_SCRIPT, browserError, browserMessage, config, mutedScriptError } from "./test-events";

describe("script-error filter", () => {
  it("drops a muted cross-origin 'Script error.' as the browser SDK sends it", () => {
    expect(shouldFilter(mutedScriptError(), config())).toBe("script-error");
  });

  it("drops the variants without a dot and with the old 'Javascript error' wording", () => {
    expect(shouldFilter(mutedScriptError("Script error"), config())).toBe("script-error");
    expect(shouldFilter(mutedScriptError("Javascript error: Script error. on line 0"), config())).toBe("script-error");
  });

  it("drops 'Script error.' sent as an exception without any stack", () => {
    const event = { exception: { values: [{ type: "Error", value: "Script error." }] } };
    expect(shouldFilter(event, config())).toBe("script-error");
  });

  it("drops 'Script error.' whose throwing frame is a script from another origin", () => {
    const event = browserError({
      type: "Error",
      value: "Script error.",
      frames: [
        { filename: APP_SCRIPT, function: "mountWidget", lineno: 1, colno: 200 },
        { filename: CDN_SCRIPT, function: "render", lineno: 3, colno: 9001 },
      ],
    });
    expect(shouldFilter(event, config())).toBe("script-error");
  });

  it("keeps a same-origin 'Script error.' with a real stack trace", () => {
    const event = browserError({ type: "Error", value: "Script error." });
    expect(shouldFilter(event, config())).toBeNull();
  });

  it("keeps 'Script error.' with a stack when the page URL is unknown", () => {
    const event = {
      exception: { values: [{ type: "Error", value: "Script error.", stacktrace: { frames: [{ filename: CDN_SCRIPT, lineno: 3 }] } }] },
    };
    expect(shouldFilter(event, config())).toBeNull();
  });

  it("keeps messages that only start like it", () => {
    expect(shouldFilter(browserMessage("Script error in checkout: total missing"), config())).toBeNull();
    expect(shouldFilter(browserError({ type: "Error", value: "Script errors.", frames: [] }), config())).toBeNull();
  });

  it("keeps everything when switched off", () => {
    expect(shouldFilter(mutedScriptError(), { ...ALL_OFF })).toBeNull();
    expect(shouldFilter(mutedScriptError(), config({ scriptError: false }))).toBeNull();
  });
});
