import { describe, expect, it } from "vitest";
import { linkHeader } from "./pagination";

describe("the Link header", () => {
  const base = "https://telltale.example/api/0/projects/acme/web/issues/";

  it("keeps every query parameter in both links and moves only the cursor, in Sentry's shape", () => {
    const query = new URLSearchParams({
      query: "is:unresolved level:error",
      limit: "5",
      statsPeriod: "24h",
      environment: "prod",
      cursor: "old",
    });
    const kept = "query=is%3Aunresolved+level%3Aerror&limit=5&statsPeriod=24h&environment=prod";
    expect(linkHeader(base, query, { previousCursor: "p1", nextCursor: "n1" })).toBe(
      `<${base}?${kept}&cursor=p1>; rel="previous"; results="true"; cursor="p1", <${base}?${kept}&cursor=n1>; rel="next"; results="true"; cursor="n1"`,
    );
  });

  it('says results="false" with an empty cursor at either end', () => {
    expect(linkHeader(base, new URLSearchParams(), { previousCursor: null, nextCursor: null })).toBe(
      `<${base}>; rel="previous"; results="false"; cursor="", <${base}>; rel="next"; results="false"; cursor=""`,
    );
  });
});
