import { describe, expect, it } from "vitest";
import { isBuildSourceMap } from "./build-maps-route";

describe("isBuildSourceMap", () => {
  it("matches the build's maps however the path is spelled", () => {
    for (const path of [
      "/_next/static/chunks/0voq6hx2_kx2t.js.map",
      "/_next/static/chunks/0axtj456s7gcv.css.map",
      "/_next/static/chunks/x.js%2Emap",
      "/_next/static/chunks/x.js%2emap",
      "//_next/static/chunks/x.js.map",
      "/_next/static/media/../chunks/x.js.map",
      "/foo/../_next/static/chunks/x.js.map",
      "/_next/static/chunks/x.js.map/",
      "/_next/static/chunks/x.js.MAP",
      "/%5Fnext/static/chunks/x.js.map",
    ])
      expect(isBuildSourceMap(path), path).toBe(true);
  });

  it("leaves chunks, other paths and undecodable paths to Next.js", () => {
    for (const path of [
      "/_next/static/chunks/0voq6hx2_kx2t.js",
      "/_next/static/chunks/x.css",
      "/orgs/acme/issues/1.map",
      "/api/0/projects/acme/web/files/x.map",
      "/_next/static/chunks/%E0%A4%A.map",
    ])
      expect(isBuildSourceMap(path), path).toBe(false);
  });
});
