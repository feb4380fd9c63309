import { invalidInput } from "../../core/errors";
import type { IssueChange } from "../../core/issues/triage";

/** What a `PUT …/issues/` body asks for: the triage changes, and for the bulk form a merge and `hasSeen`. */
export interface IssueChangeBody {
  changes: IssueChange[];
  merge: boolean;
  hasSeen: boolean | null;
}

const objectOf = (value: unknown): Record<string, unknown> =>
  value !== null && typeof value === "object" && !Array.isArray(value) ? (value as Record<string, unknown>) : {};

/**
 * Sentry's issue update body: `status` ("resolved", "resolvedInNextRelease", "unresolved",
 * "ignored", or "muted" as sentry-cli's `issues mute` says ignored) with `statusDetails`
 * (`inRelease`, `inNextRelease`, `ignoreDuration`, `ignoreCount`, `ignoreUserCount`) or a
 * top-level `snoozeDuration`/`ignoreDuration` in minutes (sentry-cli sends it null);
 * `isBookmarked`, `assignedTo`, and for bulk requests `merge` and `hasSeen`.
 */
export function issueChangeBody(body: unknown, bulk: boolean): IssueChangeBody {
  if (body === null || typeof body !== "object" || Array.isArray(body))
    throw invalidInput('send a JSON object, e.g. {"status": "resolved"}');
  const b = body as Record<string, unknown>;
  const details = objectOf(b.statusDetails);
  const changes: IssueChange[] = [];
  if (b.status !== undefined) changes.push(statusChange(b.status, details, b.snoozeDuration ?? b.ignoreDuration));
  if (typeof b.isBookmarked === "boolean") changes.push({ action: "bookmark", on: b.isBookmarked });
  if (b.assignedTo !== undefined) changes.push(assignment(b.assignedTo));
  const merge = bulk && b.merge === true;
  const hasSeen = bulk && typeof b.hasSeen === "boolean" ? b.hasSeen : null;
  if (changes.length === 0 && !merge && hasSeen === null)
    throw invalidInput(
      `nothing to change: send status, statusDetails, isBookmarked${bulk ? ", assignedTo, hasSeen or merge" : " or assignedTo"}`,
    );
  return { changes, merge, hasSeen };
}

function statusChange(status: unknown, details: Record<string, unknown>, snooze: unknown): IssueChange {
  if (status === "resolved") {
    if (details.inNextRelease === true) return { action: "resolveInNextRelease" };
    if (typeof details.inRelease === "string") return { action: "resolveInRelease", release: details.inRelease };
    return { action: "resolve" };
  }
  if (status === "resolvedInNextRelease") return { action: "resolveInNextRelease" };
  if (status === "unresolved") return { action: "unresolve" };
  if (status === "ignored" || status === "muted") {
    const minutes = typeof snooze === "number" ? snooze : details.ignoreDuration;
    if (typeof minutes === "number") return { action: "ignore", minutes };
    if (typeof details.ignoreCount === "number") return { action: "ignore", count: details.ignoreCount };
    if (typeof details.ignoreUserCount === "number") return { action: "ignore", users: details.ignoreUserCount };
    return { action: "ignore", forever: true };
  }
  throw invalidInput(`status must be "resolved", "resolvedInNextRelease", "unresolved" or "ignored", not ${JSON.stringify(status)}`);
}

function assignment(to: unknown): IssueChange {
  if (to === null || to === "") return { action: "assign", assigneeId: null };
  if (typeof to === "string" && /^(user:)?\d+$/.test(to)) return { action: "assign", assigneeId: Number(to.replace("user:", "")) };
  if (typeof to === "string" && /^team:\d+$/.test(to)) return { action: "assign", assigneeId: null, teamId: Number(to.slice(5)) };
  throw invalidInput('assignedTo is a user id ("12" or "user:12"), a team ("team:3") or null');
}
