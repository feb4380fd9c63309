import type { Ctx } from "../context";
import { invalidInput } from "../errors";
import type { Issue } from "./issue";
import { DEFAULT_QUERY, listIssues } from "./list";

/** How many issues one bulk change or delete reaches at most, as Sentry's bulk endpoints. */
export const BULK_LIMIT = 1000;

/** Sentry's legacy `status` filter: the stored status it keeps. */
const STATUSES: Record<string, Issue["status"]> = {
  resolved: "resolved",
  unresolved: "unresolved",
  ignored: "ignored",
  muted: "ignored",
};

/**
 * The issues a bulk request names (Sentry's `PUT`/`DELETE …/issues/`): its `id`s, those of the
 * organization's `projectIds` that exist (any other is left out, as Sentry leaves ids out of
 * scope); without ids, the first BULK_LIMIT the search `query` finds (unresolved ones when there
 * is none). Either is narrowed to one `status` when given — sentry-cli's `-a` and `-s`.
 */
export async function bulkSelection(
  ctx: Ctx,
  input: {
    organizationId: number;
    projectIds: number[];
    ids: number[] | null;
    query: string | null;
    status: string | null;
    user: { id: number };
  },
): Promise<Issue[]> {
  const status = input.status === null ? null : (STATUSES[input.status] ?? null);
  if (input.status !== null && status === null) throw invalidInput(`status must be one of ${Object.keys(STATUSES).join(", ")}`);
  if (input.ids !== null) {
    if (input.ids.length > BULK_LIMIT) throw invalidInput(`name at most ${BULK_LIMIT} issues at once`);
    const found = await Promise.all([...new Set(input.ids)].map((id) => ctx.issueReader.inOrganization(input.organizationId, id)));
    return found.flatMap((f) =>
      f &&
      f.issue.merged_into_id === null &&
      input.projectIds.includes(f.issue.project_id) &&
      (status === null || f.issue.status === status)
        ? [f.issue]
        : [],
    );
  }
  const term = status === null ? "" : `is:${status}`;
  const query = [input.query ?? (status === null ? DEFAULT_QUERY : ""), term].join(" ").trim();
  const result = await listIssues(ctx, { projectIds: input.projectIds, query, sort: "date", limit: BULK_LIMIT, user: input.user });
  if (!result.ok) throw invalidInput(`invalid search query: ${result.error.message}`);
  return result.issues;
}
