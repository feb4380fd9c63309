import { describe, expect, it } from "vitest";
import { compareReleases, releaseOrder, type FirstSeen } from "./releases";
import { onArrivals, onTriage, UNTRIAGED, type Arrivals, type IssueState, type ReleaseComparator } from "./state";

const NOW = 1_800_000_000_000;
/** Versions only: what the digest's order comes to when every release is a semantic version. */
const semver: ReleaseComparator = compareReleases;

function issue(over: Partial<IssueState> = {}): IssueState {
  return {
    status: "unresolved",
    substatus: "ongoing",
    times_seen: 10,
    user_count: 2,
    last_release: "app@1.2.0",
    ...UNTRIAGED,
    ...over,
  };
}

function arrivals(over: Partial<Arrivals> = {}): Arrivals {
  return { timesSeen: 11, userCount: 2, lastSeen: NOW, release: "app@1.2.0", eventId: "e1", ...over };
}

describe("onArrivals", () => {
  it("reports a created issue and nothing else for the batch that made it", () => {
    expect(onArrivals(issue({ substatus: "new" }), arrivals(), NOW, true, semver)).toEqual({
      set: {},
      change: { kind: "created", data: {} },
    });
  });

  it("turns a new issue ongoing on its second batch without reporting a change", () => {
    expect(onArrivals(issue({ substatus: "new" }), arrivals(), NOW, false, semver)).toEqual({
      set: { substatus: "ongoing" },
      change: null,
    });
  });

  it("leaves an ongoing unresolved issue alone", () => {
    expect(onArrivals(issue(), arrivals(), NOW, false, semver)).toEqual({ set: {}, change: null });
  });

  it("regresses a resolved issue on a later event and clears the resolution", () => {
    const t = onArrivals(issue({ status: "resolved", substatus: "resolved", resolved_at: NOW - 1000 }), arrivals(), NOW, false, semver);
    expect(t.set).toMatchObject({ status: "unresolved", substatus: "regressed", resolved_at: null, resolved_in_release: null });
    expect(t.change).toEqual({ kind: "regressed", data: { release: "app@1.2.0", event_id: "e1" } });
  });

  it("does not regress on an event older than the resolution", () => {
    const t = onArrivals(issue({ status: "resolved", resolved_at: NOW }), arrivals({ lastSeen: NOW - 1 }), NOW, false, semver);
    expect(t.change).toBeNull();
  });

  it("resolved in a release: events from older releases are held back, that release and newer regress", () => {
    const resolved = issue({ status: "resolved", resolved_at: NOW - 1000, resolved_in_release: "app@1.2.0" });
    expect(onArrivals(resolved, arrivals({ release: "app@1.1.9" }), NOW, false, semver).change).toBeNull();
    expect(onArrivals(resolved, arrivals({ release: "app@1.2.0" }), NOW, false, semver).change?.kind).toBe("regressed");
    expect(onArrivals(resolved, arrivals({ release: "app@1.3.0" }), NOW, false, semver).change?.kind).toBe("regressed");
    // No release on the event: nothing says it is older, so it regresses.
    expect(onArrivals(resolved, arrivals({ release: null }), NOW, false, semver).change?.kind).toBe("regressed");
  });

  it("resolved in the next release: that release itself is held back too", () => {
    const resolved = issue({ status: "resolved", resolved_at: NOW - 1000, resolved_in_release: "app@1.2.0", resolved_next_release: 1 });
    expect(onArrivals(resolved, arrivals({ release: "app@1.2.0" }), NOW, false, semver).change).toBeNull();
    expect(onArrivals(resolved, arrivals({ release: "app@1.2.1" }), NOW, false, semver).change?.kind).toBe("regressed");
  });

  it("releases that cannot be ordered regress; resolved in the next release holds back only that very release", () => {
    const resolved = issue({ status: "resolved", resolved_at: NOW - 1000, resolved_in_release: "deadbeef" });
    expect(onArrivals(resolved, arrivals({ release: "cafebabe" }), NOW, false, semver).change?.kind).toBe("regressed");
    expect(onArrivals(resolved, arrivals({ release: "deadbeef" }), NOW, false, semver).change?.kind).toBe("regressed");
    const next = { ...resolved, resolved_next_release: 1 };
    expect(onArrivals(next, arrivals({ release: "deadbeef" }), NOW, false, semver).change).toBeNull();
    expect(onArrivals(next, arrivals({ release: "cafebabe" }), NOW, false, semver).change?.kind).toBe("regressed");
  });

  it("orders releases that are not versions by when they were first seen, and holds back only older ones", () => {
    // Git SHAs first seen one after another; "c0ffee1" is not known yet (its first event is arriving).
    const seen = new Map<string, FirstSeen>([
      ["a1b2c3d", { at: NOW - 3000, id: 1 }],
      ["deadbee", { at: NOW - 2000, id: 2 }],
      ["f00dfac", { at: NOW - 2000, id: 3 }],
    ]);
    const order = releaseOrder((v) => seen.get(v) ?? { at: Infinity, id: Infinity });
    const next = issue({ status: "resolved", resolved_at: NOW - 1000, resolved_in_release: "deadbee", resolved_next_release: 1 });
    expect(onArrivals(next, arrivals({ release: "a1b2c3d" }), NOW, false, order).change).toBeNull();
    expect(onArrivals(next, arrivals({ release: "deadbee" }), NOW, false, order).change).toBeNull();
    // First seen in the same millisecond, but created after it.
    expect(onArrivals(next, arrivals({ release: "f00dfac" }), NOW, false, order).change?.kind).toBe("regressed");
    expect(onArrivals(next, arrivals({ release: "c0ffee1" }), NOW, false, order).change?.kind).toBe("regressed");
    // Resolved in a named release: that release itself regresses, an older one does not.
    const inRelease = { ...next, resolved_next_release: 0 };
    expect(onArrivals(inRelease, arrivals({ release: "deadbee" }), NOW, false, order).change?.kind).toBe("regressed");
    expect(onArrivals(inRelease, arrivals({ release: "a1b2c3d" }), NOW, false, order).change).toBeNull();
  });

  it("asks the comparator with the event's release first, and regresses when it cannot order them", () => {
    const asked: [string, string][] = [];
    const unordered: ReleaseComparator = (a, b) => {
      asked.push([a, b]);
      return null;
    };
    const resolved = issue({ status: "resolved", resolved_at: NOW - 1000, resolved_in_release: "old", resolved_next_release: 1 });
    expect(onArrivals(resolved, arrivals({ release: "new" }), NOW, false, unordered).change?.kind).toBe("regressed");
    expect(asked).toEqual([["new", "old"]]);
  });

  it("unignores when the ignore time has run out", () => {
    const ignored = issue({ status: "ignored", substatus: "archived_until_condition_met", ignore_until: NOW });
    const t = onArrivals(ignored, arrivals(), NOW, false, semver);
    expect(t.change?.kind).toBe("unignored");
    expect(t.set).toMatchObject({ status: "unresolved", ignore_until: null });
    expect(onArrivals(ignored, arrivals(), NOW - 1, false, semver).change).toBeNull();
  });

  it("escalates when the count of events since ignoring is reached, counted from the baseline", () => {
    const ignored = issue({ status: "ignored", ignore_count: 5, ignore_baseline_count: 10 });
    expect(onArrivals(ignored, arrivals({ timesSeen: 14 }), NOW, false, semver).change).toBeNull();
    const t = onArrivals(ignored, arrivals({ timesSeen: 15 }), NOW, false, semver);
    expect(t.change).toEqual({ kind: "escalating", data: { event_id: "e1" } });
    expect(t.set).toMatchObject({ status: "unresolved", substatus: "escalating", ignore_count: null, ignore_baseline_count: null });
  });

  it("escalates when the count of users since ignoring is reached", () => {
    const ignored = issue({ status: "ignored", ignore_users: 3, ignore_baseline_users: 2 });
    expect(onArrivals(ignored, arrivals({ userCount: 4 }), NOW, false, semver).change).toBeNull();
    expect(onArrivals(ignored, arrivals({ userCount: 5 }), NOW, false, semver).change?.kind).toBe("escalating");
  });

  it("keeps an issue ignored forever ignored", () => {
    const ignored = issue({ status: "ignored", substatus: "archived_forever" });
    expect(onArrivals(ignored, arrivals({ timesSeen: 1_000_000, userCount: 1_000 }), NOW + 1e9, false, semver).change).toBeNull();
  });
});

describe("onTriage", () => {
  it("resolves now and clears any ignore condition", () => {
    const t = onTriage(issue({ status: "ignored", ignore_count: 5 }), { action: "resolve" }, NOW);
    expect(t.set).toMatchObject({
      status: "resolved",
      substatus: "resolved",
      resolved_at: NOW,
      resolved_in_release: null,
      ignore_count: null,
    });
    expect(t.change).toEqual({ kind: "resolved", data: { mode: "now" } });
  });

  it("resolves in the next release by holding back the release last seen", () => {
    const t = onTriage(issue({ last_release: "app@2.0.0" }), { action: "resolveInNextRelease" }, NOW);
    expect(t.set).toMatchObject({ resolved_in_release: "app@2.0.0", resolved_next_release: 1 });
    expect(t.change).toEqual({ kind: "resolved", data: { mode: "next_release", current_release: "app@2.0.0" } });
  });

  it("resolves in the next release holding back the release triage looked up, when given", () => {
    const t = onTriage(issue({ last_release: "app@1.0.0" }), { action: "resolveInNextRelease", current: "app@2.1.0" }, NOW);
    expect(t.set).toMatchObject({ resolved_in_release: "app@2.1.0", resolved_next_release: 1 });
    expect(t.change?.data).toEqual({ mode: "next_release", current_release: "app@2.1.0" });
  });

  it("resolves in a named release", () => {
    const t = onTriage(issue(), { action: "resolveInRelease", release: "app@3.0.0" }, NOW);
    expect(t.set).toMatchObject({ resolved_in_release: "app@3.0.0", resolved_next_release: 0 });
    expect(t.change?.data).toEqual({ mode: "release", release: "app@3.0.0" });
  });

  it("unresolves and clears both resolution and ignore", () => {
    const t = onTriage(issue({ status: "resolved", resolved_at: NOW - 5, resolved_in_release: "x" }), { action: "unresolve" }, NOW);
    expect(t.set).toMatchObject({
      status: "unresolved",
      substatus: "ongoing",
      resolved_at: null,
      resolved_in_release: null,
      ignore_until: null,
    });
    expect(t.change?.kind).toBe("unresolved");
  });

  it("ignores for a time, a count or a number of users, recording the baseline", () => {
    const before = issue({ times_seen: 40, user_count: 7 });
    expect(onTriage(before, { action: "ignore", minutes: 30 }, NOW).set).toMatchObject({
      status: "ignored",
      substatus: "archived_until_condition_met",
      ignore_until: NOW + 30 * 60_000,
    });
    expect(onTriage(before, { action: "ignore", count: 100 }, NOW).set).toMatchObject({ ignore_count: 100, ignore_baseline_count: 40 });
    expect(onTriage(before, { action: "ignore", users: 5 }, NOW).set).toMatchObject({ ignore_users: 5, ignore_baseline_users: 7 });
    expect(onTriage(before, { action: "ignore", forever: true }, NOW)).toEqual({
      set: expect.objectContaining({ status: "ignored", substatus: "archived_forever", ignore_until: null }),
      change: { kind: "ignored", data: { until: "forever" } },
    });
  });

  it("ignoring then the condition: the two functions agree end to end", () => {
    const ignored = { ...issue({ times_seen: 40 }), ...onTriage(issue({ times_seen: 40 }), { action: "ignore", count: 3 }, NOW).set };
    expect(onArrivals(ignored, arrivals({ timesSeen: 42 }), NOW, false, semver).change).toBeNull();
    expect(onArrivals(ignored, arrivals({ timesSeen: 43 }), NOW, false, semver).change?.kind).toBe("escalating");
  });

  it("assigns and unassigns, a person or a team but never both", () => {
    expect(onTriage(issue(), { action: "assign", assigneeId: 4 }, NOW)).toEqual({
      set: { assignee_id: 4, assignee_team_id: null },
      change: { kind: "assigned", data: { assignee_id: 4 } },
    });
    expect(onTriage(issue({ assignee_id: 4 }), { action: "assign", assigneeId: null, teamId: 7 }, NOW)).toEqual({
      set: { assignee_id: null, assignee_team_id: 7 },
      change: { kind: "assigned", data: { assignee_id: null, assignee_team_id: 7 } },
    });
    expect(onTriage(issue({ assignee_id: 4 }), { action: "assign", assigneeId: null }, NOW).change?.kind).toBe("unassigned");
  });

  it("a comment changes no state but is reported", () => {
    expect(onTriage(issue(), { action: "comment", text: "looking" }, NOW)).toEqual({
      set: {},
      change: { kind: "commented", data: { text: "looking" } },
    });
  });
});
