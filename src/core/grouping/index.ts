/** Grouping: dated strategy versions, an explainable result, SDK fingerprints and fingerprint rules. */
export { computeGrouping, EMPTY_HASH, type GroupingOptions } from "./compute";
export {
  GROUPING_CONFIG,
  groupingStrategy,
  groupingStrategies,
  isGroupingConfig,
  registerGroupingStrategy,
  type GroupingStrategy,
} from "./config";
export { groupForProject, inTransition, type ProjectGrouping, type ProjectGroupingResult } from "./project";
export { contributingValues, hashValues } from "./component";
export { summarizeGrouping, type GroupedBy, type GroupingSummary } from "./summary";
export { deriveIssueFields, type IssueFields, type IssueMetadata } from "./issue-fields";
export { normalizeMessage, parameterize } from "./parameterize";
export { parseFingerprintRules, formatRuleError, type ParseRulesResult } from "./rules/parse";
export { matchFingerprintRules } from "./rules/match";
export type { FingerprintRule, RuleError, RuleMatcher } from "./rules/types";
export { GROUPING_LIMITS, RULE_LIMITS, ISSUE_FIELD_LIMITS } from "./limits";
export type * from "./types";
