import { describe, expect, it } from "vitest";
import type { IssueFields } from "../grouping/index";
import { normalizeEvent } from "../normalize/normalize-event";
import type { NormalizedEvent } from "../normalize/types";
import { MemoryIssueStore } from "../../../test/support/memory-issues";
import { MemoryReleaseOrder } from "../../../test/support/memory-release-order";
import { assignIssues, type GroupedEvent } from "./assign";
import { eventFacts } from "./event-tags";

const NOW = Date.parse("2026-11-24T12:00:00Z");

function event(over: Record<string, unknown> = {}): NormalizedEvent {
  const result = normalizeEvent(
    { message: "boom", level: "error", timestamp: NOW / 1000 - 60, release: "shop@1", environment: "production", ...over },
    { receivedAt: new Date(NOW) },
  );
  if (!result.ok) throw new Error(result.reason);
  return result.event;
}

function grouped(hash: string, over: Record<string, unknown> = {}, extra: Partial<GroupedEvent> = {}): GroupedEvent {
  const e = event(over);
  const fields: IssueFields = { type: "default", title: String(over.message ?? "boom"), culprit: "", level: "error", metadata: {} };
  return {
    projectId: 1,
    eventId: e.event_id,
    facts: eventFacts(e),
    hashes: [hash],
    secondaryHashes: [],
    config: "test",
    issue: fields,
    ...extra,
  };
}

describe("the issue step over an in-memory IssueStore", () => {
  const order = new MemoryReleaseOrder();

  it("puts events with one hash into one issue and counts them, reporting `created` once", async () => {
    const store = new MemoryIssueStore();
    const batch = [grouped("a"), grouped("a"), grouped("b")];
    const issueOf = await assignIssues(store, batch, NOW, order);
    expect(issueOf.get(batch[0]!)).toBe(issueOf.get(batch[1]!));
    expect(issueOf.get(batch[2]!)).not.toBe(issueOf.get(batch[0]!));
    const a = store.issues.get(issueOf.get(batch[0]!)!)!;
    expect(a).toMatchObject({ times_seen: 2, shortNumber: 1, substatus: "new" });
    expect(store.issues.get(issueOf.get(batch[2]!)!)!.shortNumber).toBe(2);
    expect(store.changes.map((c) => c.kind)).toEqual(["created", "created"]);
  });

  it("counts distinct users, tags and hours, and a second batch makes a new issue ongoing", async () => {
    const store = new MemoryIssueStore();
    const [first] = [grouped("a", { user: { id: "u1" }, tags: { region: "eu" } })];
    const issueOf = await assignIssues(
      store,
      [first!, grouped("a", { user: { id: "u1" } }), grouped("a", { user: { id: "u2" } })],
      NOW,
      order,
    );
    const id = issueOf.get(first!)!;
    expect(store.issues.get(id)).toMatchObject({ times_seen: 3, user_count: 2 });
    expect(store.tags.get(`${id}\u0000region\u0000eu`)?.count).toBe(1);
    expect([...store.hours.values()].reduce((a, b) => a + b, 0)).toBe(3);
    expect(store.samples).toHaveLength(3);
    await assignIssues(store, [grouped("a", { user: { id: "u1" } })], NOW, order);
    expect(store.issues.get(id)).toMatchObject({ times_seen: 4, user_count: 2, substatus: "ongoing" });
    expect(store.changes.map((c) => c.kind)).toEqual(["created"]);
  });

  it("regresses a resolved issue on a later event and reports it with the event", async () => {
    const store = new MemoryIssueStore();
    const first = grouped("a");
    const id = (await assignIssues(store, [first], NOW, order)).get(first)!;
    Object.assign(store.issues.get(id)!, { status: "resolved", substatus: "resolved", resolved_at: NOW - 30_000 });
    const later = grouped("a", { timestamp: NOW / 1000 - 1, event_id: "b".repeat(32) });
    await assignIssues(store, [later], NOW, order);
    expect(store.issues.get(id)).toMatchObject({ status: "unresolved", substatus: "regressed", resolved_at: null });
    expect(store.changes.at(-1)).toMatchObject({ kind: "regressed", issueId: id, userId: null, data: { event_id: "b".repeat(32) } });
  });

  it("shows the newest event's title and level, not an older one's arriving later", async () => {
    const store = new MemoryIssueStore();
    const first = grouped("a", { message: "first" });
    const id = (await assignIssues(store, [first], NOW, order)).get(first)!;
    await assignIssues(store, [grouped("a", { message: "newer", timestamp: NOW / 1000 - 10 })], NOW, order);
    expect(store.issues.get(id)!.title).toBe("newer");
    await assignIssues(store, [grouped("a", { message: "older", timestamp: NOW / 1000 - 3600 })], NOW, order);
    expect(store.issues.get(id)!.title).toBe("newer");
    expect(store.issues.get(id)!.first_seen).toBe(NOW - 3_600_000);
  });

  it("finds an issue by a previous grouping version's hash, which then learns the new one", async () => {
    const store = new MemoryIssueStore();
    const old = grouped("old-hash");
    const id = (await assignIssues(store, [old], NOW, order)).get(old)!;
    const upgraded = grouped("new-hash", {}, { secondaryHashes: ["old-hash"] });
    expect((await assignIssues(store, [upgraded], NOW, order)).get(upgraded)).toBe(id);
    expect(store.hashes.get("1\u0000new-hash")).toBe(id);
    const after = grouped("new-hash");
    expect((await assignIssues(store, [after], NOW, order)).get(after)).toBe(id);
    expect(store.issues.size).toBe(1);
  });

  it("never gives a previous version's hash to a new issue", async () => {
    const store = new MemoryIssueStore();
    const g = grouped("fresh", {}, { secondaryHashes: ["unknown-old"] });
    await assignIssues(store, [g], NOW, order);
    expect(store.hashes.has("1\u0000unknown-old")).toBe(false);
    expect(store.hashes.has("1\u0000fresh")).toBe(true);
  });

  it("asks first-seen times once per batch, only for resolved issues, and holds back an older release's events", async () => {
    const store = new MemoryIssueStore();
    const releases = new MemoryReleaseOrder();
    releases.add(1, "a1b2c3d", NOW - 3_600_000);
    releases.add(1, "e4f5a6b", NOW - 1_800_000);
    const a = grouped("a", { release: "e4f5a6b" });
    const b = grouped("b", { release: "e4f5a6b" });
    const ids = await assignIssues(store, [a, b, grouped("c")], NOW, releases);
    expect(releases.asked).toEqual([]);
    for (const g of [a, b])
      Object.assign(store.issues.get(ids.get(g)!)!, {
        status: "resolved",
        substatus: "resolved",
        resolved_at: NOW - 30_000,
        resolved_in_release: "e4f5a6b",
        resolved_next_release: 1,
      });
    const late = (hash: string, release: string) => grouped(hash, { release, timestamp: NOW / 1000 - 1 });
    await assignIssues(store, [late("a", "a1b2c3d"), late("b", "0badc0de"), late("c", "a1b2c3d")], NOW, releases);
    expect(releases.asked).toEqual([4]);
    expect(store.issues.get(ids.get(a)!)).toMatchObject({ status: "resolved" });
    // A release no event named before is arriving now: newer than the one resolved in.
    expect(store.issues.get(ids.get(b)!)).toMatchObject({ status: "unresolved", substatus: "regressed" });
  });

  it("resolved in a release no event has named yet: releases first seen before the resolution are older, later ones newer", async () => {
    const store = new MemoryIssueStore();
    const releases = new MemoryReleaseOrder();
    releases.add(1, "a1b2c3d", NOW - 3_600_000);
    const first = grouped("a", { release: "a1b2c3d" });
    const id = (await assignIssues(store, [first], NOW, releases)).get(first)!;
    const resolve = () =>
      Object.assign(store.issues.get(id)!, {
        status: "resolved",
        resolved_at: NOW - 60_000,
        resolved_in_release: "typed-by-hand",
        resolved_next_release: 0,
      });
    resolve();
    await assignIssues(store, [grouped("a", { release: "a1b2c3d", timestamp: NOW / 1000 - 1 })], NOW, releases);
    expect(store.issues.get(id)!.status).toBe("resolved");
    releases.add(1, "e4f5a6b", NOW - 30_000);
    await assignIssues(store, [grouped("a", { release: "e4f5a6b", timestamp: NOW / 1000 - 1 })], NOW, releases);
    expect(store.issues.get(id)!.status).toBe("unresolved");
    resolve();
    await assignIssues(store, [grouped("a", { release: "0badc0de", timestamp: NOW / 1000 - 1 })], NOW, releases);
    expect(store.issues.get(id)!.status).toBe("unresolved");
  });
});
