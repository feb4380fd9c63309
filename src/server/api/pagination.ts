/**
 * Sentry's `Link` header, for every paged list of the web API: the previous and the next page,
 * each a URL that keeps every query parameter of the request (query, limit, statsPeriod,
 * environment, project…) with only the cursor changed, then `results` (is there such a page)
 * and the cursor itself — the shape sentry-cli and Sentry's docs follow
 * (https://docs.sentry.io/api/pagination/).
 */
import { JsonWithHeaders } from "./raw";

export interface PageCursors {
  previousCursor: string | null;
  nextCursor: string | null;
}

function pageLink(base: string, query: URLSearchParams, rel: "previous" | "next", cursor: string | null): string {
  const search = new URLSearchParams(query);
  search.delete("cursor");
  if (cursor) search.set("cursor", cursor);
  const text = search.toString();
  return `<${base}${text ? `?${text}` : ""}>; rel="${rel}"; results="${cursor ? "true" : "false"}"; cursor="${cursor ?? ""}"`;
}

/** The `Link` header for a page of the list at `base` (an absolute URL) asked for with `query`. */
export function linkHeader(base: string, query: URLSearchParams, page: PageCursors): string {
  return `${pageLink(base, query, "previous", page.previousCursor)}, ${pageLink(base, query, "next", page.nextCursor)}`;
}

/** A page of a list as JSON, with its `Link` header. */
export function pagedJson(body: unknown, base: string, query: URLSearchParams, page: PageCursors): JsonWithHeaders {
  return new JsonWithHeaders(body, { link: linkHeader(base, query, page) });
}
