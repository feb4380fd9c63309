import type { ArtifactFile, ArtifactStore, DebugIdMatch } from "../ports/artifacts";
import { normalizeDebugId } from "./bundle";

/** A minified file found for a frame and its source map when the store has one. */
export interface ArtifactMatch {
  minified: ArtifactFile;
  sourceMap: ArtifactFile | null;
}

/** Stands in for the `~` (any host) of a bundle URL while resolving a relative reference. */
const TILDE_BASE = "http://tilde.invalid";

/**
 * The bundle URLs that may hold an event's `abs_path`, best first: the URL itself, without its
 * query, then `~/path` with and without the query — what `sentry-cli sourcemaps upload
 * --url-prefix '~/…'` stores for any host (https://docs.sentry.io/platforms/javascript/sourcemaps/troubleshooting_js/).
 * `app:///x.js` (React Native, Electron) matches `~/x.js` too. A fragment never counts.
 */
export function candidateUrls(absPath: string): string[] {
  const noFragment = absPath.split("#")[0] ?? "";
  const out: string[] = [noFragment];
  let parsed: URL | null = null;
  try {
    parsed = new URL(noFragment);
  } catch {
    // a bare path (`/static/app.js`) is taken as the path of any host
  }
  const withoutQuery = noFragment.split("?")[0] ?? "";
  if (withoutQuery !== noFragment) out.push(withoutQuery);
  const path = parsed ? parsed.pathname : withoutQuery.startsWith("/") ? withoutQuery : null;
  if (path !== null) {
    const query = parsed ? parsed.search : noFragment.slice(withoutQuery.length);
    if (query) out.push(`~${path}${query}`);
    out.push(`~${path}`);
  }
  return [...new Set(out.filter((u) => u.length > 0))];
}

/**
 * Where a file's source map is, as a bundle URL: its `Sourcemap` header resolved against the file's
 * own URL (`app.min.js.map` next to `~/static/app.min.js` is `~/static/app.min.js.map`), or the
 * file's URL and `.map` when it names none. Null for an inline `data:` map, read from the file itself.
 */
export function sourceMapUrl(file: Pick<ArtifactFile, "url" | "sourcemap">): string | null {
  const ref = file.sourcemap ?? `${file.url.split("/").pop() ?? ""}.map`;
  if (ref.startsWith("data:")) return null;
  const tilde = file.url.startsWith("~/");
  const base = tilde ? `${TILDE_BASE}${file.url.slice(1)}` : file.url;
  try {
    const resolved = new URL(ref, base);
    return resolved.origin === TILDE_BASE ? `~${resolved.pathname}${resolved.search}` : resolved.toString();
  } catch {
    return null;
  }
}

/** A frame's files by its debug id (`debug_meta.images` of type `sourcemap`); nothing when the id is not one. */
export async function findByDebugId(
  ctx: { artifacts: Pick<ArtifactStore, "byDebugId" | "byUrl"> },
  projectId: number,
  debugId: string,
): Promise<DebugIdMatch> {
  const id = normalizeDebugId(debugId);
  if (id === null) return { minified: null, sourceMap: null };
  return ctx.artifacts.byDebugId(projectId, id);
}

/** A frame's files by the event's release and dist and the frame's `abs_path`, for builds uploaded without debug ids. */
export async function findByUrl(
  ctx: { artifacts: Pick<ArtifactStore, "byDebugId" | "byUrl"> },
  projectId: number,
  release: string,
  dist: string | null,
  absPath: string,
): Promise<ArtifactMatch | null> {
  const minified = await ctx.artifacts.byUrl(projectId, release, dist, candidateUrls(absPath));
  if (!minified) return null;
  const mapUrl = sourceMapUrl(minified);
  const sourceMap = mapUrl === null ? null : await ctx.artifacts.byUrl(projectId, release, dist, candidateUrls(mapUrl));
  return { minified, sourceMap };
}
