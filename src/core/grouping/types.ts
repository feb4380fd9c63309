/**
 * The explainable result of grouping (after Sentry's grouping variants): a
 * tree of components where every node says whether it contributed to the hash and, when it did
 * not or was changed, why. The issue page renders it as "why these events grouped".
 */

/** One node of the explanation tree. Leaves are the strings that were hashed. */
export interface GroupingComponent {
  /** What the node is: `exception`, `type`, `value`, `stacktrace`, `frame`, `function`, … */
  id: string;
  contributes: boolean;
  /** Why the node does not contribute, or how its value was changed; null when plain. */
  hint: string | null;
  values: Array<GroupingComponent | string>;
}

/**
 * A way of grouping the event. The default strategy yields `app` (in-app frames only) and
 * `system` (all frames), or one `default` variant when the event has no stack trace; a custom
 * fingerprint (SDK or rule) adds `fingerprint`.
 */
export interface GroupingVariant {
  id: "app" | "system" | "default" | "fingerprint";
  description: string;
  /** True when the variant's hash is, or is part of, the event's hash. */
  contributes: boolean;
  hint: string | null;
  /** md5 of the variant's contributing values; null when nothing in it contributes. */
  hash: string | null;
  /** The default strategy's tree (app, system and default variants). */
  component?: GroupingComponent;
  /** The fingerprint after variable substitution, `{{ default }}` replaced by the default hash. */
  values?: string[];
}

/** Where a custom fingerprint came from. */
export interface FingerprintInfo {
  source: "sdk" | "rule";
  /** The fingerprint as written (SDK `fingerprint` or the rule's right-hand side). */
  raw: string[];
  /** With variables such as `{{ transaction }}` substituted; `{{ default }}` stays as is. */
  resolved: string[];
  /** The matching rule, for `source: "rule"`. */
  rule?: { line: number; text: string };
  /** The SDK's fingerprint when a rule replaced it. */
  replacedSdkFingerprint?: string[];
}

export interface GroupingResult {
  /** The strategy version that produced the hash, stored with it (e.g. `telltale:2026-11-22`). */
  config: string;
  /** The event's grouping hash: 32 lowercase hex digits. */
  hash: string;
  /**
   * Every hash that identifies this event's issue, `hash` first. The system variant's hash is
   * kept as a second one, so an event whose frames changed in-app flags still finds its issue
   * (develop docs, "Frame Hiding").
   */
  hashes: string[];
  variants: GroupingVariant[];
  fingerprint: FingerprintInfo | null;
  /** The issue title a fingerprint rule set with `title="…"`, variables substituted. */
  title: string | null;
}
