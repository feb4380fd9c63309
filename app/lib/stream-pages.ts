/**
 * "Previous page" for the issue stream, whose cursors only go forward: each page's link carries
 * the cursors of the pages before it (`back`, dot-separated: base64url has no dot), the first
 * page left out as it needs none. Kept to the last MAX_TRAIL pages so links stay short; beyond
 * them "Previous" leads back towards the first page.
 */
export interface PageLink {
  cursor: string | undefined;
  back: string | undefined;
}

const MAX_TRAIL = 20;

const join = (trail: string[]) => (trail.length ? trail.join(".") : undefined);

export function streamPageLinks(
  cursor: string | undefined,
  back: string | undefined,
  nextCursor: string | null | undefined,
): { previous: PageLink | null; next: PageLink | null } {
  const trail = (back ?? "").split(".").filter(Boolean).slice(-MAX_TRAIL);
  const previous = cursor ? { cursor: trail.at(-1), back: join(trail.slice(0, -1)) } : null;
  const next = nextCursor ? { cursor: nextCursor, back: join(cursor ? [...trail, cursor].slice(-MAX_TRAIL) : []) } : null;
  return { previous, next };
}
