import { describe, expect, it } from "vitest";
import { browserEvent, nodeHttpEvent } from "../../../../test/support/sdk-events";
import type { NormalizedEvent } from "../../normalize/types";
import { defaultProjectOptions, digest, envelope, storedEvent, tally } from "../../../../test/support/digest-stages";
import { DEFAULT_ENVELOPE_LIMITS } from "../../envelope/index";
import { MAX_DEFERRALS, runStages } from "../run";
import { BoundedCache } from "./cache";
import type { Enricher } from "./enricher";

type RawFrame = { function?: string; filename?: string; context_line?: string };

/** What symbolication does to a minified frame: the original function, file and source line in place of the built ones. */
function resolveFrames<T extends { exception?: unknown }>(event: T): T {
  const values = (event.exception as { values?: { stacktrace?: { frames?: RawFrame[] } }[] } | undefined)?.values ?? [];
  for (const value of values) {
    for (const [i, frame] of (value.stacktrace?.frames ?? []).entries()) {
      frame.function = `resolved_handler${i}`;
      frame.filename = `src/original${i}.ts`;
      frame.context_line = `const order${i} = await loadOrder(id);`;
    }
  }
  return event;
}

const rewriting: Enricher = { name: "rewrite", enrich: async (event) => resolveFrames(event) };
/** Never answers: only its budget ends it. */
const hanging: Enricher = { name: "hanging", enrich: () => new Promise<NormalizedEvent | null>(() => {}) };
const throwing: Enricher = {
  name: "throwing",
  enrich: async () => {
    throw new Error("source map host unreachable");
  },
};

describe("enrichment before grouping", () => {
  it("groups by the frames an enricher rewrote", async () => {
    const plain = await digest([envelope([{ type: "event", payload: nodeHttpEvent() }])]);
    const enriched = await digest([envelope([{ type: "event", payload: nodeHttpEvent() }])], { enrichers: [rewriting] });
    const rewrittenBySdk = await digest([envelope([{ type: "event", payload: resolveFrames(nodeHttpEvent()) }])]);
    const hash = (d: typeof plain) => d.store.stored.events[0]?.hashes[0];
    expect(hash(enriched)).toBeDefined();
    expect(hash(enriched)).not.toBe(hash(plain));
    expect(hash(enriched)).toBe(hash(rewrittenBySdk));
    expect(
      storedEvent(enriched.store.stored.events[0]!).exception?.values[0]?.stacktrace?.frames.every((f) =>
        f.function?.startsWith("resolved_"),
      ),
    ).toBe(true);
  });

  it("stores an event whose enricher runs past its budget as it came, says why, and digests the other projects' events", async () => {
    const plain = await digest([envelope([{ type: "event", payload: nodeHttpEvent() }])]);
    const bodies = [envelope([{ type: "event", payload: nodeHttpEvent() }]), envelope([{ type: "event", payload: browserEvent() }])];
    const late = await digest(bodies, { enrichers: [hanging], budget: { perEventMs: 20, perBatchMs: 1000 } }, [1, 2]);
    expect(late.store.stored.events.map((e) => e.projectId)).toEqual([1, 2]);
    const first = late.store.stored.events[0]!;
    expect(first.hashes[0]).toBe(plain.store.stored.events[0]?.hashes[0]);
    expect(storedEvent(first).errors).toEqual([
      { type: "enrichment_timeout", name: "hanging", value: expect.stringContaining("no answer") },
    ]);
    expect(tally(late.outcomes)).toEqual({ "error/accepted/": 2 });
  });

  it("skips enrichers once the batch's budget is spent, and still stores every event", async () => {
    const bodies = [1, 2, 3].map(() => envelope([{ type: "event", payload: nodeHttpEvent() }]));
    const { store } = await digest(bodies, { enrichers: [rewriting], budget: { perEventMs: 1000, perBatchMs: 0 } });
    expect(store.stored.events).toHaveLength(1); // the same event id three times: stored once
    expect(storedEvent(store.stored.events[0]!).errors).toEqual([
      { type: "enrichment_skipped", name: "rewrite", value: "the time budget was spent" },
    ]);
  });

  it("stores an event whose enricher throws, unenriched, with the error, and runs the next enricher", async () => {
    const { store, settled } = await digest([envelope([{ type: "event", payload: nodeHttpEvent() }])], {
      enrichers: [throwing, rewriting],
    });
    expect(settled.map((s) => s.failure)).toEqual([null]);
    const event = storedEvent(store.stored.events[0]!);
    expect(event.errors).toEqual([{ type: "enrichment_failed", name: "throwing", value: "source map host unreachable" }]);
    expect(event.exception?.values[0]?.stacktrace?.frames[0]?.function).toMatch(/^resolved_/);
  });

  it("gives an enricher a copy: what it changes before it times out is not stored", async () => {
    const meddling: Enricher = {
      name: "meddling",
      enrich: (event) => {
        event.level = "fatal";
        if (event.exception) event.exception.values = [];
        return new Promise(() => {});
      },
    };
    const { store } = await digest([envelope([{ type: "event", payload: nodeHttpEvent() }])], {
      enrichers: [meddling],
      budget: { perEventMs: 10, perBatchMs: 1000 },
    });
    expect(storedEvent(store.stored.events[0]!).exception?.values).toHaveLength(1);
    expect(storedEvent(store.stored.events[0]!).level).toBe("error");
  });
});

describe("deferring an event whose enrichment is still running", () => {
  /** Answers after `ms` for project 1, the way a source map decoding in its thread does, at once for others. */
  const slow = (ms: number): Enricher => ({
    name: "slow",
    enrich: async (event, { projectId }) => {
      if (projectId === 1) await new Promise((r) => setTimeout(r, ms));
      return { ...event, level: "fatal" };
    },
  });
  const budget = { perEventMs: 2000, perBatchMs: 5000, deferAfterMs: 20 };

  it("sets its envelope aside whole, counts nothing of it, and stores the rest of the batch", async () => {
    const waiting = envelope([
      { type: "event", payload: nodeHttpEvent() },
      { type: "client_report", payload: { timestamp: 1, discarded_events: [{ reason: "sample_rate", category: "error", quantity: 3 }] } },
    ]);
    const d = await digest([waiting, envelope([{ type: "event", payload: browserEvent() }])], { enrichers: [slow(300)], budget }, [1, 2]);
    expect(d.settled.map((s) => s.deferred ?? false)).toEqual([true, false]);
    // Nothing of the waiting envelope is stored or counted (its client report neither) until it comes back.
    expect(d.store.stored.events.map((e) => [e.projectId, storedEvent(e).level])).toEqual([[2, "fatal"]]);
    expect(tally(d.outcomes)).toEqual({ "error/accepted/": 1 });
  });

  it("waits as long as the event's budget allows once the envelope was deferred MAX_DEFERRALS times", async () => {
    const inputs = [0, MAX_DEFERRALS].map((deferrals) => ({
      projectId: 1,
      keyId: 1,
      receivedAt: Date.now(),
      body: envelope([{ type: "event", payload: nodeHttpEvent() }]),
      options: defaultProjectOptions(),
      rules: [],
      deferrals,
    }));
    const settled = await runStages(inputs, {
      limits: DEFAULT_ENVELOPE_LIMITS,
      enrichers: [slow(100)],
      budget,
      cache: new BoundedCache(100),
    });
    expect(settled.map((s) => s.deferred ?? false)).toEqual([true, false]);
    expect(storedEvent(settled[1]!.records.events[0]!).level).toBe("fatal");
  });

  it("never defers without deferAfterMs: the event waits for its budget", async () => {
    const d = await digest([envelope([{ type: "event", payload: nodeHttpEvent() }])], {
      enrichers: [slow(60)],
      budget: { perEventMs: 2000, perBatchMs: 5000 },
    });
    expect(d.settled[0]?.deferred).toBeUndefined();
    expect(storedEvent(d.store.stored.events[0]!).level).toBe("fatal");
  });
});

describe("the enrichment cache", () => {
  it("evicts the least recently used entries past its weight, and keeps enrichers and projects apart", () => {
    const cache = new BoundedCache(10);
    const a = cache.scoped("sourcemaps", 1);
    const b = cache.scoped("sourcemaps", 2);
    a.set("app.js.map", "map for project 1", 4);
    b.set("app.js.map", "map for project 2", 4);
    expect(a.get("app.js.map")).toBe("map for project 1");
    a.set("vendor.js.map", "vendor", 4);
    expect(b.get("app.js.map")).toBeUndefined();
    expect(a.get("app.js.map")).toBe("map for project 1");
    expect(cache.weight).toBeLessThanOrEqual(10);
    a.set("huge", "x", 11);
    expect(a.get("huge")).toBeUndefined();
    expect(cache.size).toBe(2);
  });
});
