import { HEALTH_RANK, MAX_BUCKET_MEMBERS, type SessionCountRecord, type SessionMemberRecord } from "../digest/records";

/** The bucket a member belongs to, as one string key. */
export const bucketKey = (r: SessionMemberRecord): string =>
  `${r.projectId}\u0000${r.kind}\u0000${r.bucket}\u0000${r.release}\u0000${r.environment}`;

/** One record per member of a bucket, with the worst status the batch gave it. */
export function mergeMembers(records: readonly SessionMemberRecord[]): Map<string, SessionMemberRecord[]> {
  const byBucket = new Map<string, Map<string, SessionMemberRecord>>();
  for (const r of records) {
    const key = bucketKey(r);
    let members = byBucket.get(key);
    if (!members) byBucket.set(key, (members = new Map()));
    const prev = members.get(r.member);
    if (!prev) members.set(r.member, { ...r });
    else if (r.worst > prev.worst) prev.worst = r.worst;
  }
  return new Map([...byBucket].map(([key, members]) => [key, [...members.values()]]));
}

/**
 * Which of a bucket's members to store, given those already stored (`known`) and how many the
 * bucket holds (`stored`): known members always (their worst status may rise); new ones while
 * the bucket has room under `cap`, in the order they came. The rest overflow.
 */
export function admitMembers(
  members: readonly SessionMemberRecord[],
  known: ReadonlySet<string>,
  stored: number,
  cap = MAX_BUCKET_MEMBERS,
): { admitted: SessionMemberRecord[]; overflow: SessionMemberRecord[] } {
  const admitted: SessionMemberRecord[] = [];
  const overflow: SessionMemberRecord[] = [];
  let room = Math.max(0, cap - stored);
  for (const m of members) {
    if (known.has(m.member)) admitted.push(m);
    else if (room > 0) {
      admitted.push(m);
      room--;
    } else overflow.push(m);
  }
  return { admitted, overflow };
}

/**
 * What overflowing members still count: a user as `untracked_user` in its bucket (so the page can
 * say users are under-counted), an errored session straight as `errored` (a crashed or abnormal
 * one is counted by its final status already).
 */
export function overflowCounts(overflow: readonly SessionMemberRecord[]): SessionCountRecord[] {
  const out: SessionCountRecord[] = [];
  for (const m of overflow) {
    const status = m.kind === "user" ? "untracked_user" : m.worst === HEALTH_RANK.errored ? "errored" : null;
    if (status) out.push({ projectId: m.projectId, hour: m.bucket, release: m.release, environment: m.environment, status, quantity: 1 });
  }
  return out;
}
