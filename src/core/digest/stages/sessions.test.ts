import { readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { MemoryTelemetryStore } from "../../../../test/support/memory-telemetry";
import { HEALTH_RANK, mergeRecords } from "../records";
import { MAX_BUCKET_COUNT, memberHash } from "./sessions";
import { digest, envelope, RECEIVED_MS, tally } from "../../../../test/support/digest-stages";

const attrs = { release: "shop@1.0.0", environment: "production" };
const started = "2026-11-22T07:12:00Z";
const update = (payload: Record<string, unknown>) => envelope([{ type: "session", payload: { started, attrs, ...payload } }]);
const statuses = (store: MemoryTelemetryStore) => Object.fromEntries(store.stored.sessions.map((s) => [s.status, s.quantity]));
const FIXTURES = join(import.meta.dirname, "..", "..", "..", "..", "test", "fixtures", "sdk-envelopes");

describe("session updates counted once per session (release health)", () => {
  it("a browser page load that errs, then ends unhandled: one session, unhandled, not also errored; its user once, at worst", async () => {
    const { store } = await digest([
      update({ sid: "s1", did: "ada", init: true, status: "ok", errors: 0 }),
      update({ sid: "s1", did: "ada", init: false, status: "ok", errors: 1 }),
      update({ sid: "s1", did: "ada", init: false, status: "unhandled", errors: 1 }),
    ]);
    expect(statuses(store)).toEqual({ started: 1, unhandled: 1 });
    expect(store.stored.sessionMembers.map((m) => [m.kind, m.member, m.worst])).toEqual([
      ["user", memberHash(1, "user", "ada"), HEALTH_RANK.unhandled],
      ["session", memberHash(1, "session", "s1"), HEALTH_RANK.unhandled],
    ]);
    expect(store.stored.sessionMembers.every((m) => m.bucket === Date.UTC(2026, 10, 22, m.kind === "user" ? 0 : 7))).toBe(true);
  });

  it("what @sentry/node 11 sent for a process that captured an error and exited: one session, errored once", async () => {
    const load = (name: string) => readFileSync(join(FIXTURES, `node-${name}.envelope`));
    // The first update (init, ok, errors 1) came with the error event; the last (exited, errors 1) at exit.
    const { store } = await digest([load("error-0"), load("session-0")]);
    expect(statuses(store)).toEqual({ started: 1, exited: 1 });
    expect(store.stored.sessionMembers.map((m) => [m.kind, m.worst])).toEqual([["session", HEALTH_RANK.errored]]);
  });

  it("a crash is worse than the errors before it, for the session and its user", async () => {
    const { store } = await digest([
      update({ sid: "s2", did: "bob", init: true, status: "ok", errors: 1 }),
      update({ sid: "s2", did: "bob", init: false, status: "crashed", errors: 1 }),
      update({ sid: "s3", did: "bob", init: true, status: "exited", errors: 0 }),
    ]);
    expect(statuses(store)).toEqual({ started: 2, crashed: 1, exited: 1 });
    expect(store.stored.sessionMembers.map((m) => [m.kind, m.worst])).toEqual([
      ["session", HEALTH_RANK.crashed],
      ["user", HEALTH_RANK.crashed],
    ]);
  });

  it("an aggregate bucket that names its user gives them the worst status it counted", async () => {
    const { store } = await digest([
      envelope([
        {
          type: "sessions",
          payload: {
            attrs,
            aggregates: [
              { started, did: "carol", exited: 3, errored: 1 },
              { started, exited: 2 },
            ],
          },
        },
      ]),
    ]);
    expect(statuses(store)).toEqual({ started: 6, exited: 5, errored: 1 });
    expect(store.stored.sessionMembers.map((m) => [m.kind, m.member, m.worst])).toEqual([
      ["user", memberHash(1, "user", "carol"), HEALTH_RANK.errored],
    ]);
  });

  it("keeps at most the cap of members per bucket and counts the users past it as untracked", async () => {
    const { settled } = await digest(["u1", "u2", "u3", "u1"].map((did, i) => update({ sid: `s${i}`, did, init: true, status: "exited" })));
    const store = new MemoryTelemetryStore(2);
    await store.write(mergeRecords(settled.map((s) => s.records)));
    expect(store.stored.sessionMembers.map((m) => m.member)).toEqual([memberHash(1, "user", "u1"), memberHash(1, "user", "u2")]);
    expect(statuses(store)).toEqual({ started: 4, exited: 4, untracked_user: 1 });
  });

  it("never stores the user or session id as sent", async () => {
    const { store } = await digest([update({ sid: "sid-secret", did: "ada@example.com", init: true, status: "crashed" })]);
    expect(JSON.stringify(store.stored)).not.toMatch(/ada@example|sid-secret/);
  });
});

describe("session times and counts out of range", () => {
  it("a started time past year 9999, or no time at all, is counted at the received hour", async () => {
    const { store } = await digest(
      [1e20, 1e308, "18446744073709551616", 8.64e12, "10000-01-01T00:00:00Z", -1].map((value, i) =>
        update({ sid: `s${i}`, did: `u${i}`, init: true, status: "crashed", started: value }),
      ),
    );
    const hour = Math.floor(RECEIVED_MS / 3_600_000) * 3_600_000;
    expect(store.stored.sessions.every((s) => s.hour === hour)).toBe(true);
    expect(statuses(store)).toEqual({ started: 6, crashed: 6 });
    expect(store.stored.sessionMembers.every((m) => Number.isSafeInteger(m.bucket) && m.bucket <= hour)).toBe(true);
  });

  it("a bucket counting more than MAX_BUCKET_COUNT in one status is invalid; the bucket beside it is stored", async () => {
    const { store, outcomes } = await digest([
      envelope([
        {
          type: "sessions",
          payload: {
            attrs,
            aggregates: [
              { started, exited: 1e20 },
              { started, crashed: 18446744073709551616 },
              { started, errored: MAX_BUCKET_COUNT + 1 },
              { started, exited: 2 },
            ],
          },
        },
      ]),
    ]);
    expect(statuses(store)).toEqual({ started: 2, exited: 2 });
    expect(tally(outcomes)).toMatchObject({ "session/accepted/": 1, "session/invalid/invalid_session_bucket": 3 });
  });
});
