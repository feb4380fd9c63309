/**
 * The grouping entry point: the project's first matching fingerprint rule, else the SDK's
 * `fingerprint`, else the default strategy decides the hash (develop docs "Grouping", Basics).
 * A fingerprint made only of `{{ default }}` is the default grouping; one that mixes it with
 * other values hashes them together with the default hash, splitting the default group.
 */
import { hashValues } from "./component";
import { groupingStrategy } from "./config";
import { isDefaultValue, resolveFingerprint, resolveValue } from "./fingerprint";
import { ISSUE_FIELD_LIMITS } from "./limits";
import { matchFingerprintRules } from "./rules/match";
import type { FingerprintRule } from "./rules/types";
import type { FingerprintInfo, GroupingResult, GroupingVariant } from "./types";
import type { NormalizedEvent } from "../normalize/types";

export interface GroupingOptions {
  /** The project's stored grouping config; defaults to `GROUPING_CONFIG`. */
  config?: string;
  /** The project's fingerprint rules, parsed once with `parseFingerprintRules`. */
  rules?: readonly FingerprintRule[];
}

/** The hash of an event with nothing to group by: all such events share one issue. */
export const EMPTY_HASH = hashValues([]);

function fingerprintInfo(event: NormalizedEvent, rule: FingerprintRule | undefined): FingerprintInfo | null {
  const sdk = event.fingerprint;
  if (rule) {
    return {
      source: "rule",
      raw: rule.fingerprint,
      resolved: resolveFingerprint(rule.fingerprint, event),
      rule: { line: rule.line, text: rule.text },
      ...(sdk ? { replacedSdkFingerprint: sdk } : {}),
    };
  }
  if (sdk && sdk.length > 0) return { source: "sdk", raw: sdk, resolved: resolveFingerprint(sdk, event) };
  return null;
}

function ruleTitle(rule: FingerprintRule | undefined, event: NormalizedEvent): string | null {
  if (rule?.title === undefined) return null;
  const title = resolveValue(rule.title, event).trim();
  return title.length > ISSUE_FIELD_LIMITS.titleChars ? title.slice(0, ISSUE_FIELD_LIMITS.titleChars - 1) + "…" : title;
}

export function computeGrouping(event: NormalizedEvent, options: GroupingOptions = {}): GroupingResult {
  const strategy = groupingStrategy(options.config);
  const variants = strategy.defaultVariants(event);
  const chosen = variants.find((v) => v.contributes) ?? variants[0]!;
  if (chosen.hash === null) chosen.hint = "nothing to group by: every event like this shares one issue";
  const defaultHash = chosen.hash ?? EMPTY_HASH;

  const rule = options.rules ? matchFingerprintRules(options.rules, event) : undefined;
  const fingerprint = fingerprintInfo(event, rule);
  const title = ruleTitle(rule, event);
  const custom = fingerprint ? fingerprint.resolved.filter((v) => !isDefaultValue(v)) : [];

  if (!fingerprint || custom.length === 0) {
    const others = variants.filter((v) => v !== chosen && v.hash !== null && v.hash !== defaultHash).map((v) => v.hash!);
    return { config: strategy.id, hash: defaultHash, hashes: [defaultHash, ...new Set(others)], variants, fingerprint, title };
  }

  const withDefault = fingerprint.resolved.some(isDefaultValue);
  const values = fingerprint.resolved.map((v) => (isDefaultValue(v) ? defaultHash : v));
  const hash = hashValues(values);
  const described = fingerprint.source === "rule" ? `fingerprint rule on line ${fingerprint.rule!.line}` : "fingerprint set by the SDK";
  const fingerprintVariant: GroupingVariant = {
    id: "fingerprint",
    description: described,
    contributes: true,
    hint: withDefault ? `{{ default }} stands for the ${chosen.id} variant's hash` : null,
    hash,
    values,
  };
  for (const v of variants) {
    if (withDefault && v === chosen) continue;
    v.contributes = false;
    v.hint = withDefault
      ? `not used: {{ default }} took the ${chosen.id} variant`
      : "ignored because a custom fingerprint takes precedence";
  }
  return { config: strategy.id, hash, hashes: [hash], variants: [fingerprintVariant, ...variants], fingerprint, title };
}
