/**
 * Grouping strategies are fixed, dated versions (Sentry: "each time default error grouping
 * behavior is modified, Sentry releases it as a new version"). The id is stored with every hash
 * and every issue, so events keep grouping as they did when their project chose the version.
 *
 * To change grouping, add a new id here with its own strategy file; never change what an
 * existing id computes (`corpus.test.ts` snapshots every registered version). The helpers a
 * strategy uses (frames, paths, parameterize, tokens) belong to the versions that use them: a
 * new version that needs them to behave differently gets its own copy or an option.
 */
import { defaultVariants as telltale20261122 } from "./strategy-2026-11-22";
import type { GroupingVariant } from "./types";
import type { NormalizedEvent } from "../normalize/types";
import { invalidInput } from "../errors";

export interface GroupingStrategy {
  /** Stored with every hash, e.g. `telltale:2026-11-22`. */
  readonly id: string;
  /** The date in the id: when the version was frozen. */
  readonly released: string;
  readonly description: string;
  /** The event's default variants, before any fingerprint applies. */
  defaultVariants(event: NormalizedEvent): GroupingVariant[];
}

/** The version new projects get. */
export const GROUPING_CONFIG = "telltale:2026-11-22";

const STRATEGIES: GroupingStrategy[] = [
  {
    id: "telltale:2026-11-22",
    released: "2026-11-22",
    description:
      "Exception chain types and in-app frames (module or normalized file name, function, source line), " +
      "all frames when none is in app; exception type and value, else the parameterized message, without a stack.",
    defaultVariants: telltale20261122,
  },
];

const BY_ID = new Map(STRATEGIES.map((s) => [s.id, s]));

/**
 * Adds a version at run time. Only tests call it (an upgrade is tested with a second, test-only
 * strategy); production versions are listed above, where the corpus test snapshots them.
 */
export function registerGroupingStrategy(strategy: GroupingStrategy): void {
  if (BY_ID.has(strategy.id)) return;
  STRATEGIES.push(strategy);
  BY_ID.set(strategy.id, strategy);
}

/** Every registered version, oldest first. */
export function groupingStrategies(): readonly GroupingStrategy[] {
  return STRATEGIES;
}

export function isGroupingConfig(id: string): boolean {
  return BY_ID.has(id);
}

/** The strategy for a stored config id; an unknown id is a programming or data error. */
export function groupingStrategy(id: string = GROUPING_CONFIG): GroupingStrategy {
  const strategy = BY_ID.get(id);
  if (!strategy) throw invalidInput(`unknown grouping config "${id}"; known: ${[...BY_ID.keys()].join(", ")}`);
  return strategy;
}
