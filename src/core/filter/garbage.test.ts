import { describe, expect, it } from "vitest";
import { INBOUND_FILTERS, runInboundFilters } from "./index";
import { type FilterableEvent, type InboundFilterConfig } from "./types";
import { UA, config } from "./test-events";
import { withoutBlowUp } from "../../../test/support/blow-up";

/** Every filter on, with patterns, so every code path reads the event. */
const EVERYTHING: InboundFilterConfig = config({
  localhost: true,
  errorMessages: ["*a*a*a*a*a*b", "Script?error*", "*"],
  releases: ["*a*a*a*b", "1.?"],
});

const huge = "a".repeat(2_000_000);

/** Attacker-controlled JSON, of every wrong shape we could think of. */
const GARBAGE: unknown[] = [
  null,
  undefined,
  0,
  -1,
  Number.NaN,
  42,
  "",
  "Script error.",
  true,
  [],
  [null, 1, "x"],
  {},
  { exception: null },
  { exception: 5 },
  { exception: "Script error." },
  { exception: [null, 1, "a", [], {}] },
  { exception: { values: {} } },
  { exception: { values: "x" } },
  { exception: { values: [{ type: 5, value: {}, stacktrace: "x" }] } },
  { exception: { values: [{ stacktrace: { frames: "x" } }] } },
  { exception: { values: [{ stacktrace: { frames: {} } }] } },
  {
    exception: {
      values: [{ value: "Script error.", stacktrace: { frames: [null, 1, "x", [], { lineno: "5", filename: 7, abs_path: {} }] } }],
    },
  },
  {
    exception: {
      values: [{ value: "Script error.", stacktrace: { frames: [{ lineno: Number.POSITIVE_INFINITY, filename: "http://[::1" }] } }],
    },
  },
  { message: {} },
  { message: 12 },
  { message: ["Script error."] },
  { message: { formatted: 5, message: null } },
  { logentry: "x" },
  { logentry: { formatted: [], message: 3 } },
  { request: "x" },
  { request: [] },
  { request: { url: 5, headers: "x" } },
  { request: { url: "http://[::1", headers: 7 } },
  { request: { url: "::::", headers: [[1, 2], ["User-Agent"], ["User-Agent", 5], null, "x", [null, null]] } },
  { request: { headers: { "User-Agent": ["Googlebot"] } } },
  { request: { headers: { "User-Agent": null, "user-agent": {} } } },
  { user: "x" },
  { user: { ip_address: 127 } },
  { user: { ip_address: ["127.0.0.1"] } },
  { contexts: "x" },
  { contexts: { browser: "IE" } },
  { contexts: { browser: { name: 5, version: {} } } },
  { contexts: { browser: { name: "IE", version: "x" } } },
  { contexts: { browser: { name: "IE", version: "99999999999999999999999999" } } },
  { release: 5 },
  { release: {} },
  { release: [] },
  { sdk: 1, platform: [], tags: "x", level: {}, logger: 5, transaction: [], type: null },
  { message: huge },
  { release: huge },
  { exception: { values: [{ type: huge, value: huge }] } },
  { request: { url: `http://${huge}`, headers: { "User-Agent": huge } } },
  { request: { headers: { "User-Agent": `${"Trident/7 ".repeat(200_000)}` } } },
  { request: { headers: { "User-Agent": `${"MSIE ".repeat(100_000)}${UA.ie11}` } } },
  { exception: { values: Array.from({ length: 100_000 }, () => ({ type: "Error", value: "x" })) } },
  { exception: { values: [{ stacktrace: { frames: Array.from({ length: 100_000 }, () => ({ filename: "x", lineno: 0 })) } }] } },
  JSON.parse('{"__proto__": {"message": "Script error.", "release": "1.0"}}'),
  Object.assign(Object.create(null) as object, { message: "hello" }),
];

function asEvent(value: unknown): FilterableEvent {
  // Deliberately lying to the type checker: filters must survive anything JSON can hold.
  return value as FilterableEvent;
}

describe("inbound filters on garbage input", () => {
  it("never throw, whichever filter reads the event", () => {
    for (const value of GARBAGE) {
      for (const filter of INBOUND_FILTERS) {
        expect(() => filter(asEvent(value), EVERYTHING)).not.toThrow();
      }
      expect(() => runInboundFilters(value, EVERYTHING)).not.toThrow();
    }
  });

  it("do not treat an own __proto__ key as the event's fields", () => {
    const polluted: unknown = JSON.parse('{"__proto__": {"message": "Script error.", "release": "1.0"}}');
    expect(runInboundFilters(polluted, config({ releases: ["1.0"] }))).toBeNull();
  });

  it("finish on huge values without a blow-up", () => {
    for (const value of GARBAGE) withoutBlowUp(() => runInboundFilters(value, EVERYTHING));
  });
});
