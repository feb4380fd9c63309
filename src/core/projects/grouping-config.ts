import type { Ctx } from "../context";
import { invalidInput } from "../errors";
import { GROUPING_CONFIG, groupingStrategies, groupingStrategy, inTransition, type ProjectGrouping } from "../grouping/index";

/** As Sentry does, the previous version keeps finding old issues for 90 days after an upgrade. */
export const DEFAULT_TRANSITION_DAYS = 90;
const DAY_MS = 86_400_000;

export interface GroupingState extends ProjectGrouping {
  /** Whether the transition is still running now. */
  transitioning: boolean;
  /** Versions released after the project's: what it may upgrade to, oldest first. */
  upgrades: string[];
}

export async function groupingState(ctx: Ctx, projectId: number): Promise<GroupingState> {
  const grouping = await ctx.projects.grouping(projectId);
  if (!grouping) throw new Error(`project ${projectId} does not exist`);
  const current = groupingStrategy(grouping.config);
  const upgrades = groupingStrategies()
    .filter((s) => s.released > current.released)
    .map((s) => s.id);
  return { ...grouping, transitioning: inTransition(grouping, ctx.now()), upgrades };
}

/**
 * Moves a project to a newer grouping version. For `transitionDays` the previous version's
 * hashes are computed too and find the issues made before the upgrade; new issues get the new
 * version's hashes. Only newer versions are accepted: going back would split the issues made
 * under the newer one.
 */
export async function upgradeGrouping({
  ctx,
  input,
}: {
  ctx: Ctx;
  input: { projectId: number; to?: string; transitionDays?: number };
}): Promise<GroupingState> {
  const state = await groupingState(ctx, input.projectId);
  const to = input.to ?? state.upgrades[state.upgrades.length - 1] ?? GROUPING_CONFIG;
  if (to === state.config) throw invalidInput(`the project already groups with ${to}`);
  if (!state.upgrades.includes(to)) throw invalidInput(`"${to}" is not a newer grouping version than ${state.config}`);
  const days = input.transitionDays ?? DEFAULT_TRANSITION_DAYS;
  if (!Number.isInteger(days) || days < 0 || days > 365) throw invalidInput("the transition lasts 0 to 365 days");
  await ctx.projects.setGrouping(input.projectId, { config: to, previous: state.config, transitionUntil: ctx.now() + days * DAY_MS });
  return groupingState(ctx, input.projectId);
}
