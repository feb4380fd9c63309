import type { Ctx } from "../context";
import { invalidInput, notFound } from "../errors";
import { decodeOffset, offsetPage, type KeysetPage } from "../pagination";
import type { TagKeyCount, TagValueCount, TagValueOrder } from "../ports/issue-reader";

/** A tag key of an issue with its most common values (Sentry's `topValues`). */
export interface IssueTagKey extends TagKeyCount {
  topValues: TagValueCount[];
}

/** Sentry pages an issue key's values no further than this; so do we. */
export const MAX_TAG_VALUES = 1000;

const CURSOR = "tv1";
const MOST_SEEN: TagValueOrder = { by: "count", descending: true };

/** Sentry's `sentry:user`, `sentry:release`, `sentry:dist` are stored without the prefix, as the API shows them. */
const storedKey = (key: string) => (key.startsWith("sentry:") ? key.slice("sentry:".length) : key);

/**
 * Sentry's `sort` of tag values: `count`, `date` (last seen), `age` (first seen) or `id`, `-`
 * for descending; `-id` by default. Values have no id here, so `id` is the order they were
 * first seen in, as ids would be.
 */
export function tagValueOrder(sort: string | null): TagValueOrder {
  const text = sort || "-id";
  const descending = text.startsWith("-");
  const by = ({ count: "count", date: "lastSeen", age: "firstSeen", id: "firstSeen" } as const)[descending ? text.slice(1) : text];
  if (!by) throw invalidInput("sort must be one of count, date, age or id, with - for descending");
  return { by, descending };
}

/** The issue's tag keys (only `keys` when any are given), each with its `top` most seen values. */
export async function issueTagKeys(ctx: Ctx, issueId: number, options: { keys: readonly string[]; top: number }): Promise<IssueTagKey[]> {
  const keys = await ctx.issueReader.issueTagKeys(issueId, options.keys.length ? options.keys.map(storedKey) : undefined);
  return Promise.all(
    keys.map(async (k) => ({
      ...k,
      topValues: await ctx.issueReader.issueTagValues(issueId, k.key, { order: MOST_SEEN, offset: 0, limit: options.top }),
    })),
  );
}

/** One tag key of the issue with its `top` most seen values; not found when no event of the issue carried it. */
export async function issueTagKey(ctx: Ctx, issueId: number, key: string, top: number): Promise<IssueTagKey> {
  const [found] = await issueTagKeys(ctx, issueId, { keys: [key], top });
  if (!found) throw notFound(`the issue has no tag ${key}`);
  return found;
}

/** A page of one key's values of the issue, in Sentry's `sort`, at most MAX_TAG_VALUES in all. */
export async function issueTagValuesPage(
  ctx: Ctx,
  issueId: number,
  key: string,
  page: { sort: string | null; cursor?: string | undefined; limit: number },
): Promise<KeysetPage<TagValueCount>> {
  const order = tagValueOrder(page.sort);
  const offset = page.cursor ? decodeOffset(CURSOR, page.cursor) : 0;
  if (offset === null) throw invalidInput("Invalid cursor — drop the cursor parameter to start from the first page");
  const [found] = await ctx.issueReader.issueTagKeys(issueId, [storedKey(key)]);
  if (!found) throw notFound(`the issue has no tag ${key}`);
  const limit = Math.max(0, Math.min(page.limit, MAX_TAG_VALUES - offset));
  const rows = limit === 0 ? [] : await ctx.issueReader.issueTagValues(issueId, found.key, { order, offset, limit: limit + 1 });
  // Past the cap there is no next page, as at the end of the list.
  return offsetPage(offset + limit >= MAX_TAG_VALUES ? rows.slice(0, limit) : rows, limit, offset, CURSOR);
}

/** At most this many keys in a project's or organization's list: tag names come from events, so they are unbounded. */
export const MAX_TAG_KEYS = 1000;

/** The tag keys of these projects' issues, most seen first; with `since` (ms), only values seen since then. */
export function projectTagKeys(ctx: Ctx, projectIds: readonly number[], since?: number): Promise<{ key: string; totalValues: number }[]> {
  return ctx.issueReader.tagKeys(projectIds, { since, limit: MAX_TAG_KEYS });
}
