import { describe, expect, it } from "vitest";
import { groupingFunction } from "./frames";
import { groupingFilename, groupingModule, isPlaceholderFile } from "./paths";

describe("groupingFilename", () => {
  it.each([
    ["/static/js/app.3f2a1b9c.js", "app.<hash>.js"],
    ["/static/js/app.77aa0b1c.js", "app.<hash>.js"],
    ["https://cdn.example.com/static/js/main.8e7d6c5b.chunk.js?v=3#top", "main.<hash>.chunk.js"],
    ["/assets/index-BfGz3k2A.js", "index-<hash>.js"],
    ["/js/chunk.123456.js", "chunk.<hash>.js"],
    ["/vendor/jquery-3.6.0.min.js", "jquery-<version>.min.js"],
    ["/lib/lodash@v4.17.21.js", "lodash@<version>.js"],
    ["webpack:///./src/components/App.js", "app.js"],
    ["webpack://my-app/./src/App.tsx", "app.tsx"],
    ["file:///home/ada/project/src/app.js", "app.js"],
    ["app:///main.bundle.js", "main.bundle.js"],
    ["C:\\Users\\ada\\project\\src\\App.js", "app.js"],
    ["app.js?v=2", "app.js"],
    ["/srv/build-17/src/user-service.js", "user-service.js"],
    ["/src/base64Encoder.js", "base64encoder.js"],
    ["/src/vendor~main.js", "vendor~main.js"],
    ["billing.py", "billing.py"],
  ])("%s → %s", (path, expected) => {
    expect(groupingFilename(path)).toBe(expected);
  });

  it("replaces build tokens in modules and keeps their case", () => {
    expect(groupingModule("chunks/Checkout.4f3c2a1d")).toBe("chunks/Checkout.<hash>");
    expect(groupingModule("lib:users")).toBe("lib:users");
    expect(groupingModule("__main__")).toBe("__main__");
  });

  it("recognizes placeholder files", () => {
    expect(isPlaceholderFile("<anonymous>")).toBe(true);
    expect(isPlaceholderFile("[native code]")).toBe(true);
    expect(isPlaceholderFile("app.js")).toBe(false);
    expect(isPlaceholderFile(undefined)).toBe(false);
  });
});

describe("groupingFunction", () => {
  it.each([
    ["Object.handleClick", "handleClick"],
    ["HTMLButtonElement.onClick", "onClick"],
    ["Array.forEach", "forEach"],
    ["async Promise.all", "all"],
    ["new UserService", "UserService"],
    ["Object.method [as alias]", "method"],
    ["handleClick/<", "handleClick"],
    ["handleClick/</<", "handleClick"],
    ["Object.<anonymous>", undefined],
    ["<anonymous>", undefined],
    ["?", undefined],
    ["", undefined],
  ])("JavaScript %j → %j", (name, expected) => {
    expect(groupingFunction(name, "javascript")).toBe(expected);
  });

  it("keeps other platforms' names, dots included", () => {
    expect(groupingFunction("Billing.charge", "other")).toBe("Billing.charge");
    expect(groupingFunction("<lambda>", "other")).toBe("<lambda>");
    expect(groupingFunction("?", "other")).toBeUndefined();
  });
});
