import { describe, expect, it } from "vitest";
import { HEALTH_RANK, type SessionMemberRecord } from "../digest/records";
import { admitMembers, mergeMembers, overflowCounts } from "./health-members";

const m = (member: string, worst: number, over: Partial<SessionMemberRecord> = {}): SessionMemberRecord => ({
  projectId: 1,
  kind: "user",
  bucket: 0,
  release: "shop@1",
  environment: "production",
  member,
  worst,
  ...over,
});

describe("release-health members", () => {
  it("keeps one record per member and bucket, with the worst status the batch gave it", () => {
    const merged = mergeMembers([
      m("a", HEALTH_RANK.ok),
      m("a", HEALTH_RANK.crashed),
      m("a", HEALTH_RANK.errored),
      m("b", HEALTH_RANK.ok),
      m("a", HEALTH_RANK.ok, { environment: "staging" }),
    ]);
    const buckets = [...merged.values()].map((ms) => ms.map((r) => [r.environment, r.member, r.worst]));
    expect(buckets).toEqual([
      [
        ["production", "a", HEALTH_RANK.crashed],
        ["production", "b", HEALTH_RANK.ok],
      ],
      [["staging", "a", HEALTH_RANK.ok]],
    ]);
  });

  it("admits known members always and new ones only while the bucket has room", () => {
    const members = [m("old", HEALTH_RANK.crashed), m("n1", 0), m("n2", 0), m("n3", 0)];
    const { admitted, overflow } = admitMembers(members, new Set(["old"]), 4, 6);
    expect(admitted.map((r) => r.member)).toEqual(["old", "n1", "n2"]);
    expect(overflow.map((r) => r.member)).toEqual(["n3"]);
    expect(admitMembers(members, new Set(), 9, 6).admitted).toEqual([]);
  });

  it("counts what overflows: users as untracked, errored sessions as errored, crashes not twice", () => {
    const counts = overflowCounts([
      m("u", HEALTH_RANK.crashed, { bucket: 86_400_000 }),
      m("s1", HEALTH_RANK.errored, { kind: "session", bucket: 3_600_000 }),
      m("s2", HEALTH_RANK.crashed, { kind: "session", bucket: 3_600_000 }),
    ]);
    expect(counts.map((c) => [c.status, c.hour, c.quantity])).toEqual([
      ["untracked_user", 86_400_000, 1],
      ["errored", 3_600_000, 1],
    ]);
  });
});
