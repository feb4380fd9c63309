import { describe, expect, it } from "vitest";
import { shouldFilter } from "./releases";
import { browserError, config } from "./test-events";

describe("releases filter", () => {
  const event = browserError({ release: "shop-web@2.14.0" });

  it("drops releases matching a glob", () => {
    expect(shouldFilter(event, config({ releases: ["shop-web@2.14.*"] }))).toBe("release-version");
    expect(shouldFilter(event, config({ releases: ["shop-web@2.1?.0"] }))).toBe("release-version");
    expect(shouldFilter(event, config({ releases: ["shop-web@2.14.0"] }))).toBe("release-version");
  });

  it("keeps releases that do not match", () => {
    expect(shouldFilter(event, config({ releases: ["shop-web@2.13.*", "shop-web@2.14"] }))).toBeNull();
    expect(shouldFilter(event, config({ releases: ["shop-web@2.1?"] }))).toBeNull();
  });

  it("is case-sensitive", () => {
    expect(shouldFilter(event, config({ releases: ["SHOP-WEB@*"] }))).toBeNull();
  });

  it("keeps events without a release", () => {
    expect(shouldFilter({ message: "no release" }, config({ releases: ["*"] }))).toBeNull();
  });

  it("keeps everything with no patterns", () => {
    expect(shouldFilter(event, config())).toBeNull();
  });
});
