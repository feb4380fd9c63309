/**
 * The issue's activity log, written from the issue-change outbox (docs/decisions/0010-issue-changes-outbox.md):
 * an in-database consumer, so each change becomes exactly one activity row, in the transaction
 * that moves the consumer's position. The row keeps the change's actor and time.
 */
import type { InDatabaseConsumer } from "../outbox/consume";
import type { IssueChangeRecord } from "../outbox/changes";

export const ACTIVITY_CONSUMER = "activity";

/** The activity type and data the issue page shows for a change; null for changes it does not list. */
export function activityOf(change: Pick<IssueChangeRecord, "kind" | "data">): { type: string; data: Record<string, unknown> } | null {
  // The digest's changes carry their event's facts for alert filters (./change-event.ts): not activity.
  const d = { ...change.data };
  delete d.event;
  switch (change.kind) {
    case "created":
    case "seen":
      return null;
    case "resolved":
      if (d.mode === "next_release") return { type: "set_resolved_in_next_release", data: { current_release: d.current_release ?? null } };
      if (d.mode === "release") return { type: "set_resolved_in_release", data: { release: d.release } };
      return { type: "set_resolved", data: {} };
    case "unresolved":
      return { type: "set_unresolved", data: {} };
    case "ignored":
      return { type: "set_ignored", data: d };
    case "regressed":
      return { type: "set_regression", data: d };
    case "escalating":
      return { type: "set_escalating", data: d };
    case "unignored":
      return { type: "set_unignored", data: d };
    case "assigned":
    case "unassigned":
      return { type: change.kind, data: d };
    case "commented":
      return { type: "note", data: d };
    case "merged":
      return { type: "merge", data: d };
    case "unmerged":
      return { type: "unmerge", data: d };
  }
}

export const activityConsumer: InDatabaseConsumer = {
  name: ACTIVITY_CONSUMER,
  inDatabase: true,
  async handle(changes, ports) {
    await ports.activity.append(
      changes.flatMap((c) => {
        const a = activityOf(c);
        return a ? [{ issueId: c.issueId, userId: c.userId, type: a.type, data: a.data, at: c.at }] : [];
      }),
    );
  },
};
