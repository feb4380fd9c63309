import { describe, expect, it } from "vitest";
import { ARRIVING, compareReleases, releaseOrder, releaseToHoldBack, type FirstSeen } from "./releases";

describe("compareReleases", () => {
  // Each version lower than the next (SemVer 2.0 §11's own example, then more).
  const ascending = [
    "1.0.0-alpha",
    "1.0.0-alpha.1",
    "1.0.0-alpha.beta",
    "1.0.0-beta",
    "1.0.0-beta.2",
    "1.0.0-beta.11",
    "1.0.0-rc.1",
    "1.0.0-rc.2",
    "1.0.0-rc.10",
    "1.0.0",
    "1.0.1",
    "1.2.0",
    "1.10.0",
    "2.0.0-0",
    "2.0.0-0.0",
    "2.0.0-1",
    "2.0.0-10",
    "2.0.0-A",
    "2.0.0-a",
    "2.0.0",
    "10.0.0",
  ];

  it("orders every pair of a SemVer precedence table", () => {
    for (const [i, a] of ascending.entries()) {
      for (const [j, b] of ascending.entries()) {
        expect(compareReleases(a, b), `${a} vs ${b}`).toBe(Math.sign(i - j));
      }
    }
  });

  it("compares numeric prerelease identifiers as numbers, even past 2^53", () => {
    expect(compareReleases("1.0.0-rc.2", "1.0.0-rc.10")).toBe(-1);
    expect(compareReleases("1.0.0-rc.99999999999999999998", "1.0.0-rc.99999999999999999999")).toBe(-1);
    expect(compareReleases("1.0.0-rc.007", "1.0.0-rc.7")).toBe(0);
  });

  it("ignores build metadata, a leading v and missing minor or patch", () => {
    expect(compareReleases("1.0.0+build.1", "1.0.0+build.2")).toBe(0);
    expect(compareReleases("1.0.0-rc.1+exp.sha.5114f85", "1.0.0-rc.1")).toBe(0);
    expect(compareReleases("v1.2", "1.2.0")).toBe(0);
    expect(compareReleases("2", "1.9.9")).toBe(1);
  });

  it("orders versions of one package only, and nothing that is not a version", () => {
    expect(compareReleases("shop@1.9.0", "shop@2.0.0")).toBe(-1);
    expect(compareReleases("shop@1.9.0", "api@2.0.0")).toBeNull();
    expect(compareReleases("shop@1.9.0", "1.9.0")).toBeNull();
    expect(compareReleases("deadbeef", "cafebabe")).toBeNull();
    expect(compareReleases("1.0.0-", "1.0.0")).toBeNull();
    expect(compareReleases("1.0.0-rc..1", "1.0.0")).toBeNull();
  });
});

describe("releaseOrder", () => {
  const seen = new Map<string, FirstSeen>([
    ["shop@2.0.0", { at: 100, id: 1 }],
    ["a1b2c3d", { at: 200, id: 2 }],
    ["shop@1.9.0", { at: 300, id: 3 }],
    ["e4f5a6b", { at: 300, id: 4 }],
  ]);
  const order = releaseOrder((v) => seen.get(v) ?? ARRIVING);

  it("follows versions where both parse, even against first-seen times", () => {
    expect(order("shop@1.9.0", "shop@2.0.0")).toBe(-1);
  });

  it("falls back on first-seen time, then creation order within one millisecond", () => {
    expect(order("a1b2c3d", "e4f5a6b")).toBe(-1);
    expect(order("shop@1.9.0", "e4f5a6b")).toBe(-1);
    expect(order("e4f5a6b", "shop@2.0.0")).toBe(1);
    expect(order("a1b2c3d", "a1b2c3d")).toBe(0);
  });

  it("puts a release not seen yet after every known one, and cannot order two unknown ones", () => {
    expect(order("0badc0de", "e4f5a6b")).toBe(1);
    expect(order("e4f5a6b", "0badc0de")).toBe(-1);
    expect(order("0badc0de", "feedface")).toBeNull();
  });
});

describe("releaseToHoldBack", () => {
  it("takes the greatest version of the package last seen, never a lower one", () => {
    const project = ["shop@1.0.0", "shop@2.1.0", "shop@2.0.0", "api@9.0.0", "3f2a9c1"];
    expect(releaseToHoldBack("shop@1.0.0", project)).toBe("shop@2.1.0");
    expect(releaseToHoldBack("shop@3.0.0", project)).toBe("shop@3.0.0");
  });

  it("keeps the release last seen when it is not a version, or none", () => {
    expect(releaseToHoldBack("3f2a9c1", ["shop@2.1.0", "9e8d7c6"])).toBe("3f2a9c1");
    expect(releaseToHoldBack(null, ["shop@2.1.0"])).toBeNull();
  });
});
