import type { ActivityEntry } from "@/src/core/issues/queries";
import { When } from "../when";
import { CommentBody } from "./comment-body";

/** "API-2 and API-3", or "2 issues" for entries written before the short ids were recorded; "1 issue", not "1 issues". */
export function mergedNames(d: Record<string, unknown>): string {
  const ids = Array.isArray(d.mergedShortIds) ? d.mergedShortIds.filter((s): s is string => typeof s === "string") : [];
  if (ids.length > 0) return ids.length === 1 ? ids[0]! : `${ids.slice(0, -1).join(", ")} and ${ids.at(-1)!}`;
  const n = Array.isArray(d.merged) ? d.merged.length : 0;
  return n === 1 ? "1 issue" : `${n} issues`;
}

const DESCRIBE: Record<string, (d: Record<string, unknown>) => string> = {
  set_resolved: () => "resolved the issue",
  set_resolved_in_next_release: () => "resolved the issue in the next release",
  set_resolved_in_release: (d) => `resolved the issue in release ${String(d.release ?? "")}`,
  set_unresolved: () => "marked the issue unresolved",
  set_ignored: (d) =>
    d.until === "forever"
      ? "ignored the issue forever"
      : d.minutes
        ? `ignored the issue for ${String(d.minutes)} minutes`
        : d.count
          ? `ignored the issue until ${String(d.count)} more events`
          : `ignored the issue until ${String(d.users)} more users`,
  set_regression: (d) => `marked the issue as a regression${d.release ? ` in release ${String(d.release)}` : ""}`,
  set_escalating: () => "unignored the issue: its ignore condition was met",
  set_unignored: () => "unignored the issue: its ignore time ran out",
  assigned: (d) => (typeof d.team_slug === "string" ? `assigned the issue to #${d.team_slug}` : "assigned the issue"),
  unassigned: () => "unassigned the issue",
  // Entries written before the short id was recorded fall back to the row id.
  merge: (d) =>
    d.into
      ? `merged this issue into ${typeof d.intoShortId === "string" ? d.intoShortId : `#${String(d.into)}`}`
      : `merged ${mergedNames(d)} into this one`,
  unmerge: (d) =>
    d.from !== undefined
      ? `unmerged this issue from ${typeof d.fromShortId === "string" ? d.fromShortId : `#${String(d.from)}`}`
      : `unmerged ${typeof d.issueShortId === "string" ? d.issueShortId : `#${String(d.issue)}`} out of this issue`,
  note: () => "commented",
  bookmarked: () => "bookmarked the issue",
  unbookmarked: () => "removed the bookmark",
};

export function ActivityList({ entries }: { entries: ActivityEntry[] }) {
  if (entries.length === 0) return <p className="muted">No activity yet.</p>;
  return (
    <ul className="activity" data-testid="activity">
      {entries.map((e) => (
        <li key={e.id}>
          <strong>{e.user ? e.user.name || e.user.email : "Telltale"}</strong> {(DESCRIBE[e.type] ?? (() => e.type))(e.data)}{" "}
          <span className="muted-small">
            <When ms={e.createdAt} />
          </span>
          {e.type === "note" && <CommentBody text={String(e.data.text ?? "")} />}
        </li>
      ))}
    </ul>
  );
}
