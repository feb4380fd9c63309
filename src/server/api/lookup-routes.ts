import { lookup, type LookupResult } from "../../core/search/lookup";
import { route, type ApiRoute } from "./route";

/** Where the UI shows a result; the core names data, the adapter names pages. */
function hrefOf(org: string, r: LookupResult): string {
  switch (r.kind) {
    case "issue":
      return `/orgs/${org}/issues/${r.id}`;
    case "event":
      return `/orgs/${org}/issues/${r.issueId}/events/${r.eventId}`;
    case "trace":
      return `/orgs/${org}/traces/${r.traceId}`;
    case "project":
      return `/orgs/${org}/issues?project=${encodeURIComponent(r.slug)}`;
  }
}

/**
 * The command palette's data: a GET with the session cookie, as all page data is fetched
 * (the router accepts cookies for reads only). Issue read covers every kind it returns.
 */
export const LOOKUP_ROUTES: ApiRoute[] = [
  route("GET", "/organizations/{}/lookup", "issue:read", async ({ ctx, access, query }) => {
    const results = await lookup({
      ctx,
      input: { org: access.org, projectIds: access.projectIds, query: (query.get("query") ?? "").slice(0, 200) },
    });
    return { results: results.map((r) => ({ ...r, href: hrefOf(access.org.slug, r) })) };
  }),
];
