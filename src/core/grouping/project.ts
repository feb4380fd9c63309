/**
 * A project's grouping: the version it uses and, during an upgrade's transition, the version
 * before. While the transition lasts an event gets both versions' hashes: the new ones make
 * and name issues, the previous ones only find issues made before the upgrade, so old issues
 * keep receiving their events (and learn the new hashes, so they match directly afterwards).
 * After the transition only the new version is computed.
 */
import { computeGrouping } from "./compute";
import type { FingerprintRule } from "./rules/types";
import type { GroupingResult } from "./types";
import type { NormalizedEvent } from "../normalize/types";

export interface ProjectGrouping {
  config: string;
  previous: string | null;
  /** When the transition ends (ms since the epoch); null when there is none. */
  transitionUntil: number | null;
}

export interface ProjectGroupingResult {
  /** The grouping by the project's version: its hashes make and name issues. */
  result: GroupingResult;
  /** The previous version's hashes during a transition (those not already primary): they only find issues. */
  secondaryHashes: string[];
}

/** Whether `at` (ms) lies in the project's transition from `previous` to `config`. */
export function inTransition(grouping: ProjectGrouping, at: number): boolean {
  return (
    grouping.previous !== null &&
    grouping.previous !== grouping.config &&
    grouping.transitionUntil !== null &&
    at < grouping.transitionUntil
  );
}

/** Groups an event as its project does at `at` (ms): fingerprint rules apply under both versions. */
export function groupForProject(
  event: NormalizedEvent,
  grouping: ProjectGrouping,
  rules: readonly FingerprintRule[],
  at: number,
): ProjectGroupingResult {
  const result = computeGrouping(event, { config: grouping.config, rules });
  if (!inTransition(grouping, at)) return { result, secondaryHashes: [] };
  const previous = computeGrouping(event, { config: grouping.previous!, rules });
  const primary = new Set(result.hashes);
  return { result, secondaryHashes: [...new Set(previous.hashes)].filter((h) => !primary.has(h)) };
}
