/**
 * What the command palette's lookup (src/core/search/lookup.ts) reads: ids, prefixes and title
 * words, each within one organization, so that another organization's data is never found.
 * Implemented over the main database by src/db/palette-lookup.ts.
 */
export interface PaletteLookup {
  /** Grouped events with this event id (32 lower-case hex digits) in the organization's projects. */
  eventsById(
    orgId: number,
    eventId: string,
    limit: number,
  ): Promise<{ eventId: string; issueId: number; title: string; project: string }[]>;
  /**
   * Whether a transaction, a span or an error event of the organization carries the trace id;
   * with `projectIds`, of those projects only.
   */
  traceSeen(orgId: number, projectIds: ReadonlySet<number> | null, traceId: string): Promise<boolean>;
  /** Projects whose slug or name starts with `text`, case-insensitively and taken literally, by slug. */
  projectsByPrefix(orgId: number, text: string, limit: number): Promise<{ slug: string; name: string }[]>;
  /**
   * Unmerged issues whose title has a word starting with each of `words` (letters and digits
   * only), most recently seen first, through the title word index.
   */
  issuesByTitleWords(
    orgId: number,
    words: readonly string[],
    limit: number,
  ): Promise<{ id: number; shortNumber: number; title: string; project: string }[]>;
  /** The slug of a project, by id. */
  projectSlug(projectId: number): Promise<string | null>;
}
