/** What the rules page shows of a project's alert notifications: the newest first, at most 50. */
import type { Ctx } from "../context";
import type { NotificationEntry } from "../ports/alerts";
import type { AttemptRecord } from "../ports/delivery";

export const HISTORY_SIZE = 50;

export async function recentNotifications(ctx: Ctx, projectId: number): Promise<(NotificationEntry & { tries: AttemptRecord[] })[]> {
  const notes = (await ctx.alerts.notifications({ projectId })).slice(0, HISTORY_SIZE);
  const tries = new Map<string, AttemptRecord[]>();
  for (const a of await ctx.alerts.attemptsOf(notes.map((n) => n.id)))
    tries.set(a.notificationId, [...(tries.get(a.notificationId) ?? []), a]);
  return notes.map((n) => ({ ...n, tries: tries.get(n.id) ?? [] }));
}

/** A rule's conditions as a sentence's parts joined by its `actionMatch`. */
export function joinByMatch(parts: readonly string[], match: "all" | "any" | "none"): string {
  if (parts.length === 0) return match === "any" ? "never" : "any new, regressed or escalating issue";
  if (match === "none") return `none of: ${parts.join("; ")}`;
  return parts.join(match === "all" ? ", and " : ", or ");
}
