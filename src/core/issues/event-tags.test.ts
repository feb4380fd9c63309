import { describe, expect, it } from "vitest";
import type { NormalizedEvent } from "../normalize/types";
import { eventTags, tagText } from "./event-tags";

const tagsOf = (event: Partial<NormalizedEvent>) => Object.fromEntries(eventTags(event as NormalizedEvent));

describe("eventTags", () => {
  it("trims every tag derived from contexts: no trailing newline, no inner line break", () => {
    const tags = tagsOf({
      contexts: {
        os: { name: "Debian\n", version: "12.11\n" },
        browser: { name: " Chrome ", version: "131.0.1\r\n" },
        runtime: { name: "CPython", version: "3.11.2\n" },
        device: { model: "Pixel\t9 " },
      },
    });
    expect(tags).toMatchObject({
      "os.name": "Debian",
      os: "Debian 12.11",
      "browser.name": "Chrome",
      browser: "Chrome 131",
      runtime: "CPython 3.11.2",
      device: "Pixel 9",
    });
  });

  it("drops a tag that is only whitespace, and trims the SDK's own tags too", () => {
    const tags = tagsOf({ contexts: { os: { name: "\n", version: "1" } }, tags: [["shard", " eu-1\n"]] });
    expect(tags).not.toHaveProperty("os");
    expect(tags).not.toHaveProperty("os.name");
    expect(tags.shard).toBe("eu-1");
  });

  it("tagText turns control characters into single spaces", () => {
    expect(tagText("a\u0000\u0001b\n")).toBe("a b");
  });
});
