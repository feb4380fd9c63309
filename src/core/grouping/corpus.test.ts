/**
 * The grouping corpus: real payloads from @sentry/node, @sentry/browser (headless Chromium) and
 * sentry-python, captured by test/fixtures/grouping/capture.mjs. Each runs through the normalizer
 * and then every registered grouping version; the snapshots pin what each version computes, so
 * a change to an existing version shows up here (add a new version instead, config.ts).
 */
import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { computeGrouping } from "./compute";
import { GROUPING_CONFIG, groupingStrategies } from "./config";
import { deriveIssueFields } from "./issue-fields";
import { summarizeGrouping } from "./summary";
import { normalizeEvent } from "../normalize";
import type { NormalizedEvent } from "../normalize/types";

const DIR = join(import.meta.dirname, "../../../test/fixtures/grouping");
const NAMES = readdirSync(DIR)
  .filter((f) => f.endsWith(".json"))
  .map((f) => f.slice(0, -".json".length))
  .sort();

function load(name: string): NormalizedEvent {
  const result = normalizeEvent(JSON.parse(readFileSync(join(DIR, `${name}.json`), "utf8")), { receivedAt: new Date() });
  if (!result.ok) throw new Error(`${name}: ${result.reason}`);
  return result.event;
}

const hashOf = (name: string) => computeGrouping(load(name)).hash;

function summary(event: NormalizedEvent, config: string) {
  const result = computeGrouping(event, { config });
  const { groupedBy, variant, values } = summarizeGrouping(result);
  const { title, culprit, type } = deriveIssueFields(event, result);
  return { hash: result.hash, hashes: result.hashes, groupedBy, variant, values, issue: { type, title, culprit } };
}

it("has the whole corpus", () => {
  expect(NAMES).toHaveLength(30);
  expect(new Set(NAMES.map((n) => n.split("-")[0]))).toEqual(new Set(["node", "python", "browser"]));
});

for (const strategy of groupingStrategies()) {
  describe(`corpus snapshots, ${strategy.id}`, () => {
    it.each(NAMES)("%s", (name) => {
      expect(summary(load(name), strategy.id)).toMatchSnapshot();
    });
  });
}

describe(`explanation trees, ${GROUPING_CONFIG}`, () => {
  it.each(["python-chained", "python-logging-user-42", "node-fingerprint-default-plus", "browser-unhandled-timer"])("%s", (name) => {
    expect(computeGrouping(load(name))).toMatchSnapshot();
  });
});

describe("corpus: what groups together", () => {
  it.each([
    ["the same Node TypeError after lines moved", "node-typeerror-render", "node-typeerror-render-shifted"],
    ["Node captureMessage 'User 123/456 not found' from one call site", "node-message-user-123", "node-message-user-456"],
    ["a Python KeyError for another key", "python-keyerror", "python-keyerror-other-key"],
    ["the same Python KeyError after lines moved", "python-keyerror", "python-keyerror-shifted"],
    ["Python logging 'User %s not found' with other ids", "python-logging-user-42", "python-logging-user-77"],
    ["Python messages with other numbers, dates and IPs", "python-message-order-a", "python-message-order-b"],
    ["the same browser TypeError in a rebuilt, renamed bundle", "browser-typeerror-click", "browser-typeerror-click-rebuilt"],
    ["browser messages with other invoice ids", "browser-message-invoice-a", "browser-message-invoice-b"],
  ])("%s", (_why, a, b) => {
    expect(hashOf(a)).toBe(hashOf(b));
  });

  it.each([
    ["TypeErrors in two different functions", "node-typeerror-render", "node-typeerror-order"],
    ["the same error through two call sites", "node-call-site-server", "node-call-site-worker"],
    ["KeyError and ValueError", "python-keyerror", "python-valueerror"],
    ["TypeError and ReferenceError", "browser-typeerror-click", "browser-referenceerror"],
    ["a fingerprint with {{ default }} and a value, and the default", "node-fingerprint-default-plus", "node-typeerror-render"],
  ])("keeps apart %s", (_why, a, b) => {
    expect(hashOf(a)).not.toBe(hashOf(b));
  });

  it("makes 22 issues of the 30 events", () => {
    expect(new Set(NAMES.map(hashOf)).size).toBe(22);
  });

  it("groups the library-crossing Node error by its in-app frames, with the system hash second", () => {
    const result = computeGrouping(load("node-through-library"));
    expect(result.hashes).toHaveLength(2);
    expect(result.variants.find((v) => v.id === "system")!.hash).toBe(result.hashes[1]);
  });
});
