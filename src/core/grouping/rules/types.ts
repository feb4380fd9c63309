/** Parsed fingerprint rules and the matchers they may use (docs.sentry.io "Fingerprint Rules"). */
import type { GlobOptions, MatchBudget } from "./glob";

export type MatcherKey =
  | "error.type"
  | "error.value"
  | "message"
  | "logger"
  | "level"
  | "sdk"
  | "tags"
  | "family"
  | "stack.function"
  | "stack.module"
  | "stack.abs_path"
  | "stack.package"
  | "app";

/** What a matcher looks at: the event, one exception of the chain, or one frame. */
export type MatcherScope = "event" | "exception" | "frame";

export interface MatcherSpec {
  key: MatcherKey;
  scope: MatcherScope;
  glob: GlobOptions;
}

/** Case rules and path semantics per matcher, as the docs state them. */
const SPECS: Record<string, MatcherSpec> = {
  "error.type": { key: "error.type", scope: "exception", glob: {} },
  "error.value": { key: "error.value", scope: "exception", glob: { caseInsensitive: true } },
  message: { key: "message", scope: "event", glob: { caseInsensitive: true } },
  logger: { key: "logger", scope: "event", glob: {} },
  level: { key: "level", scope: "event", glob: { caseInsensitive: true } },
  sdk: { key: "sdk", scope: "event", glob: {} },
  family: { key: "family", scope: "event", glob: {} },
  "stack.function": { key: "stack.function", scope: "frame", glob: {} },
  "stack.module": { key: "stack.module", scope: "frame", glob: {} },
  "stack.abs_path": { key: "stack.abs_path", scope: "frame", glob: { path: true, caseInsensitive: true } },
  "stack.package": { key: "stack.package", scope: "frame", glob: { path: true, caseInsensitive: true } },
  app: { key: "app", scope: "frame", glob: {} },
};

/** Sentry's short names. */
const ALIASES: Record<string, string> = {
  type: "error.type",
  value: "error.value",
  function: "stack.function",
  module: "stack.module",
  path: "stack.abs_path",
  package: "stack.package",
};

const TAGS: MatcherSpec = { key: "tags", scope: "event", glob: {} };

export const MATCHER_NAMES: readonly string[] = [
  ...Object.keys(SPECS).filter((k) => k !== "app" && k !== "family"),
  "tags.<name>",
  "family",
  "app",
];

export function matcherSpec(name: string): MatcherSpec | undefined {
  if (name.startsWith("tags.")) return TAGS;
  return SPECS[ALIASES[name] ?? name];
}

export interface RuleMatcher {
  key: MatcherKey;
  scope: MatcherScope;
  /** `tags.<name>`: the tag's name. */
  tag?: string;
  negated: boolean;
  /** The value as written, without quotes (escapes kept). */
  pattern: string;
  /** The matcher as written, for explanations. */
  source: string;
  /** Whether one value matches (before negation), within the caller's step budget. */
  test: (value: string, budget?: MatchBudget) => boolean;
}

export interface FingerprintRule {
  /** 1-based line in the rules text. */
  line: number;
  text: string;
  matchers: RuleMatcher[];
  /** The values as written: literals with `{{ variables }}`, or `{{ default }}`. */
  fingerprint: string[];
  title?: string;
}

export interface RuleError {
  line: number;
  /** 1-based. */
  column: number;
  message: string;
}
