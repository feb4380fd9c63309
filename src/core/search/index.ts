/** Issue search: Sentry's query syntax parsed, printed back, compiled to SQL, and paged. */
export * from "./ast";
export { applyIssueQuery, issueQueryCondition, type IssueQueryOptions } from "./compile";
export { formatIssueQuery } from "./format";
export { parseIssueQuery } from "./parse";
export {
  DEFAULT_ISSUE_SORT,
  ISSUE_SORTS,
  applyIssueSort,
  cursorAfter,
  decodeIssueCursor,
  encodeIssueCursor,
  fetchIssuePage,
  isIssueSort,
  parseIssueSort,
  type CursorParse,
  type IssueCursor,
  type IssueSort,
  type IssueSortColumn,
  type IssueSortRow,
  type SortParse,
} from "./sort";
