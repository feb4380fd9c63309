/**
 * A one-line reading of a grouping result for the issue page's header ("grouped by in-app stack
 * trace", "grouped by fingerprint rule on line 3"), next to the full tree in `variants`.
 */
import { contributingValues } from "./component";
import type { GroupingComponent, GroupingResult, GroupingVariant } from "./types";

export type GroupedBy = "fingerprint rule" | "SDK fingerprint" | "in-app stack trace" | "stack trace" | "exception" | "message" | "nothing";

export interface GroupingSummary {
  config: string;
  hash: string;
  groupedBy: GroupedBy;
  /** The variant that decided: `fingerprint`, `app`, `system` or `default`. */
  variant: GroupingVariant["id"];
  /** The hashed strings, in order (for a fingerprint: its values after substitution). */
  values: string[];
}

function hasContributing(node: GroupingComponent, id: string): boolean {
  if (!node.contributes) return false;
  if (node.id === id) return true;
  return node.values.some((v) => typeof v !== "string" && hasContributing(v, id));
}

function defaultGroupedBy(variant: GroupingVariant): GroupedBy {
  const root = variant.component;
  if (!root || !root.contributes) return "nothing";
  if (hasContributing(root, "stacktrace")) return variant.id === "app" ? "in-app stack trace" : "stack trace";
  if (hasContributing(root, "exception")) return "exception";
  return "message";
}

export function summarizeGrouping(result: GroupingResult): GroupingSummary {
  const variant = result.variants.find((v) => v.contributes) ?? result.variants[0]!;
  const groupedBy: GroupedBy =
    variant.id === "fingerprint"
      ? result.fingerprint?.source === "rule"
        ? "fingerprint rule"
        : "SDK fingerprint"
      : defaultGroupedBy(variant);
  const values = variant.component ? contributingValues(variant.component) : (variant.values ?? []);
  return { config: result.config, hash: result.hash, groupedBy, variant: variant.id, values };
}
