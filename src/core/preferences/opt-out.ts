import type { NewNotification } from "../ports/alerts";
import type { UserNotificationStore } from "../ports/user-notifications";

/**
 * Issue alert notifications for one project, less those to people who switched issue alerts off
 * there (their project override, else their own choice). Rows for no person (a webhook's, say,
 * with a user id nobody has) pass: only a person's own choice removes their email.
 */
export async function withoutOptedOut(
  store: Pick<UserNotificationStore, "optedOut">,
  projectId: number,
  rows: readonly NewNotification[],
): Promise<NewNotification[]> {
  if (rows.length === 0) return [];
  const people = rows.flatMap((r) => (r.userId === null ? [] : [r.userId]));
  if (people.length === 0) return [...rows];
  const off = await store.optedOut(people, "issueAlerts", projectId);
  return rows.filter((r) => r.userId === null || !off.has(r.userId));
}
