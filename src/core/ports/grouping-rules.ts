/**
 * A project's fingerprint rules as stored: text in Sentry's syntax, checked before it is saved
 * (src/core/issues/grouping-rules.ts). Implemented over the main database by src/db/grouping-rules-store.ts.
 */
export interface GroupingRuleStore {
  /** The project's rules text; empty when it has none. */
  text(projectId: number): Promise<string>;
  /** Replaces the project's rules text. */
  save(projectId: number, text: string): Promise<void>;
}
