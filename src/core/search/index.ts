/**
 * Issue search: Sentry's query syntax parsed and printed back, sorts and cursors. Compiling a
 * query to SQL and paging through it is the storage side (src/db/issue-search.ts, behind
 * src/core/ports/issue-search.ts).
 */
export * from "./ast";
export { formatIssueQuery } from "./format";
export { parseIssueQuery } from "./parse";
export {
  DEFAULT_ISSUE_SORT,
  ISSUE_SORTS,
  cursorAfter,
  decodeIssueCursor,
  encodeIssueCursor,
  isIssueSort,
  parseIssueSort,
  type CursorParse,
  type IssueCursor,
  type IssueSort,
  type IssueSortColumn,
  type SortParse,
} from "./sort";
