import { posix } from "node:path";

/**
 * Whether a request path names one of the build's source maps (`/_next/static/…/*.map`). They
 * are registered for the internal project at start and not served: symbolication happens on the
 * server, and the pages' bytes stay what they were (docs/decisions/0015-own-source-maps.md). The
 * path is decoded and normalized first, as Next.js does before it looks for a static file, so
 * `%2Emap`, `//` and `..` do not get around it.
 */
export function isBuildSourceMap(rawPath: string): boolean {
  let path: string;
  try {
    path = decodeURIComponent(rawPath);
  } catch {
    return false; // not a path Next.js would serve a file for either
  }
  path = posix.normalize(path.replace(/\\/g, "/")).replace(/\/+$/, "");
  return path.startsWith("/_next/static/") && path.toLowerCase().endsWith(".map");
}
