import { describe, expect, it } from "vitest";
import { candidateUrls, sourceMapUrl } from "./lookup";

describe("candidateUrls", () => {
  it("tries the URL, then without its query, then ~/path with and without the query, never the fragment", () => {
    expect(candidateUrls("https://example.com/static/app.min.js?v=3#top")).toEqual([
      "https://example.com/static/app.min.js?v=3",
      "https://example.com/static/app.min.js",
      "~/static/app.min.js?v=3",
      "~/static/app.min.js",
    ]);
  });

  it("matches app:/// and bare paths as any host's path", () => {
    expect(candidateUrls("app:///main.jsbundle")).toEqual(["app:///main.jsbundle", "~/main.jsbundle"]);
    expect(candidateUrls("/static/app.js")).toEqual(["/static/app.js", "~/static/app.js"]);
  });

  it("keeps a name that is no URL or path as it is", () => {
    expect(candidateUrls("<anonymous>")).toEqual(["<anonymous>"]);
    expect(candidateUrls("")).toEqual([]);
  });
});

describe("sourceMapUrl", () => {
  it("resolves the Sourcemap header against the file's URL, ~/ included", () => {
    expect(sourceMapUrl({ url: "~/static/app.min.js", sourcemap: "app.min.js.map" })).toBe("~/static/app.min.js.map");
    expect(sourceMapUrl({ url: "~/static/js/app.js", sourcemap: "../maps/app.js.map" })).toBe("~/static/maps/app.js.map");
    expect(sourceMapUrl({ url: "https://cdn.example.com/a/app.js", sourcemap: "app.js.map" })).toBe("https://cdn.example.com/a/app.js.map");
    expect(sourceMapUrl({ url: "~/a/app.js", sourcemap: "https://maps.example.com/app.js.map" })).toBe(
      "https://maps.example.com/app.js.map",
    );
  });

  it("guesses <file>.map without a header, and leaves inline maps to the file", () => {
    expect(sourceMapUrl({ url: "~/static/app.min.js", sourcemap: null })).toBe("~/static/app.min.js.map");
    expect(sourceMapUrl({ url: "~/a.js", sourcemap: "data:application/json;base64,e30=" })).toBeNull();
  });
});
