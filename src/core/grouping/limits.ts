/**
 * Caps the grouping code applies, each with its source. Grouping runs on events already bounded
 * by `normalize/limits.ts`; these keep its own work bounded too (parameterizing, glob matching,
 * rule parsing), so hostile input costs time linear in its size.
 */
export const GROUPING_LIMITS = {
  /** Telltale: the part of a message that is parameterized and hashed (after taking 2 lines). */
  messageChars: 1024,
  /** Sentry newstyle: a context line longer than this does not contribute (minified code). */
  contextLineChars: 120,
  /** Sentry: the first two non-empty lines of a message are grouped on. */
  messageLines: 2,
} as const;

/** Caps on a project's fingerprint rules (the settings page shows the parse errors). */
export const RULE_LIMITS = {
  /** Telltale: the whole rules text. */
  textChars: 65_536,
  /** Telltale: rules in one project. */
  rules: 500,
  /** Telltale: one line, and so one glob pattern or fingerprint value. */
  lineChars: 2048,
  /** Telltale: matchers in one rule. */
  matchersPerRule: 32,
  /** Telltale: fingerprint values in one rule. */
  valuesPerRule: 32,
  /** Telltale: parse errors reported at once. */
  errors: 50,
  /** Telltale: frames the rules look at per event, newest of each stack first. */
  framesMatched: 2000,
  /**
   * Telltale: glob steps (characters × live pattern positions) matching may take per event,
   * about a second on one core; past it no rule applies and the default grouping decides.
   */
  matchSteps: 50_000_000,
} as const;

/** Caps on the issue fields derived from an event. */
export const ISSUE_FIELD_LIMITS = {
  /** Sentry: issue titles are cut (its `compute_title` truncates exception values). */
  titleChars: 256,
  /** Relay MaxChars::Culprit; develop docs: culprit 200. */
  culpritChars: 200,
  /** Telltale: `metadata.value` (exception value) and `metadata.title`. */
  metadataValueChars: 1024,
  /** Relay MaxChars::Symbol / Path for `metadata.type`, `function`, `filename`. */
  metadataSymbolChars: 256,
} as const;
