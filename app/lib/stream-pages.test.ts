import { describe, expect, it } from "vitest";
import { streamPageLinks } from "./stream-pages";

describe("streamPageLinks", () => {
  it("has no previous page on the first page, and its next page goes back to it", () => {
    expect(streamPageLinks(undefined, undefined, "c2")).toEqual({ previous: null, next: { cursor: "c2", back: undefined } });
  });

  it("walks forward remembering each page's cursor, and back one page at a time", () => {
    const p2 = streamPageLinks("c2", undefined, "c3");
    expect(p2.previous).toEqual({ cursor: undefined, back: undefined });
    expect(p2.next).toEqual({ cursor: "c3", back: "c2" });
    const p3 = streamPageLinks("c3", "c2", "c4");
    expect(p3.previous).toEqual({ cursor: "c2", back: undefined });
    expect(p3.next).toEqual({ cursor: "c4", back: "c2.c3" });
    expect(streamPageLinks("c4", "c2.c3", null)).toEqual({ previous: { cursor: "c3", back: "c2" }, next: null });
  });

  it("keeps the trail short", () => {
    const long = Array.from({ length: 50 }, (_, i) => `c${i}`).join(".");
    const { next } = streamPageLinks("c50", long, "c51");
    expect(next?.back?.split(".")).toHaveLength(20);
    expect(next?.back?.endsWith("c50")).toBe(true);
  });
});
