/**
 * Where to send the browser after signing in: a path on this origin, never another site.
 * `next` is resolved the way a browser resolves a Location header (the WHATWG URL parser
 * drops tabs and newlines and reads `\` as `/`, https://url.spec.whatwg.org/#concept-basic-url-parser),
 * so `/<TAB>/evil.example` or `/\evil.example` is seen as the other host it is and refused.
 */
export function sameOriginPath(next: string | null | undefined, origin: string): string {
  if (!next) return "/";
  let base: URL;
  let url: URL;
  try {
    base = new URL(origin);
    url = new URL(next, base);
  } catch {
    return "/";
  }
  if (url.origin !== base.origin || url.origin === "null") return "/";
  // The path alone goes back out; `/.//evil.example` normalises to the path `//evil.example`,
  // which would read as a host again, so leading slashes collapse to one.
  return `${url.pathname.replace(/^\/+/, "/")}${url.search}${url.hash}`;
}
