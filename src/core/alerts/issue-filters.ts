/**
 * Sentry's rule filters besides the level one (https://docs.sentry.io/api/alerts/create-an-issue-alert-rule-for-a-project/):
 * the event's tags, the issue's age, its assignee, and whether the event is from the latest
 * release. Each is `{ id, ...fields }` with Sentry's field names; the pure `…Passes` functions
 * say whether one holds for the facts the consumer gathered (./consumer.ts).
 */
import { z } from "zod";
import { wholeNumber } from "./frequency-conditions";

export const TAGGED_FILTER = "sentry.rules.filters.tagged_event.TaggedEventFilter";
export const AGE_FILTER = "sentry.rules.filters.age_comparison.AgeComparisonFilter";
export const ASSIGNED_FILTER = "sentry.rules.filters.assigned_to.AssignedToFilter";
export const LATEST_RELEASE_FILTER = "sentry.rules.filters.latest_release.LatestReleaseFilter";
export const ISSUE_FILTER_IDS = [TAGGED_FILTER, AGE_FILTER, ASSIGNED_FILTER, LATEST_RELEASE_FILTER] as const;

/** Sentry's match types for tags, and their words. */
export const TAG_MATCHES = {
  eq: "equals",
  ne: "does not equal",
  sw: "starts with",
  ew: "ends with",
  co: "contains",
  nc: "does not contain",
  is: "is set",
  ns: "is not set",
} as const;
export type TagMatch = keyof typeof TAG_MATCHES;

export const TaggedFilter = z
  .object({
    id: z.literal(TAGGED_FILTER),
    key: z.string({ error: "key is the tag's name" }).trim().min(1, "key is the tag's name").max(200, "key is at most 200 characters"),
    match: z.enum(Object.keys(TAG_MATCHES) as [TagMatch, ...TagMatch[]], { error: "match is one of eq, ne, sw, ew, co, nc, is, ns" }),
    value: z.string({ error: "value is text" }).max(200, "value is at most 200 characters").optional(),
  })
  .transform((f, ctx) => {
    if (f.match === "is" || f.match === "ns") return { id: f.id, key: f.key, match: f.match, value: "" };
    if (!f.value) {
      ctx.addIssue({ code: "custom", path: ["value"], message: `value is required to match with '${f.match}'` });
      return z.NEVER;
    }
    return { id: f.id, key: f.key, match: f.match, value: f.value };
  });
export type TaggedFilter = z.output<typeof TaggedFilter>;

const UNIT_MS = { minute: 60_000, hour: 3_600_000, day: 86_400_000, week: 604_800_000 } as const;
export type AgeUnit = keyof typeof UNIT_MS;

export const AgeFilter = z.object({
  id: z.literal(AGE_FILTER),
  comparison_type: z.enum(["older", "newer"], { error: "comparison_type is older or newer" }),
  value: wholeNumber(100_000),
  time: z.enum(Object.keys(UNIT_MS) as [AgeUnit, ...AgeUnit[]], { error: "time is minute, hour, day or week" }),
});
export type AgeFilter = z.output<typeof AgeFilter>;

const Id = z.union([
  z.number().int().positive(),
  z
    .string()
    .regex(/^\d{1,12}$/)
    .transform(Number),
]);
export const AssignedFilter = z
  .object({
    id: z.literal(ASSIGNED_FILTER),
    targetType: z.enum(["Unassigned", "Team", "Member"], { error: "targetType is Unassigned, Team or Member" }),
    targetIdentifier: z.union([Id, z.literal(""), z.null()]).optional(),
  })
  .transform((f, ctx) => {
    if (f.targetType === "Unassigned") return { id: f.id, targetType: f.targetType, targetIdentifier: null };
    if (typeof f.targetIdentifier !== "number") {
      ctx.addIssue({ code: "custom", path: ["targetIdentifier"], message: `targetIdentifier is the ${f.targetType.toLowerCase()}'s id` });
      return z.NEVER;
    }
    return { id: f.id, targetType: f.targetType, targetIdentifier: f.targetIdentifier };
  });
export type AssignedFilter = z.output<typeof AssignedFilter>;

export const LatestReleaseFilter = z.object({ id: z.literal(LATEST_RELEASE_FILTER) });
export type LatestReleaseFilter = z.output<typeof LatestReleaseFilter>;

export type IssueFilter = TaggedFilter | AgeFilter | AssignedFilter | LatestReleaseFilter;

/** What these filters read: the event that triggered the change and the issue as it is now. */
export interface FilterFacts {
  /** The triggering event's tags (src/core/issues/event-tags.ts); empty when the change carries none. */
  tags: ReadonlyArray<readonly [string, string]>;
  /** The triggering event's release, else the issue's last one. */
  release: string | null;
  latestRelease: string | null;
  firstSeen: number;
  assigneeId: number | null;
  assigneeTeamId: number | null;
  /** When the change happened (ms): the issue's age is measured to it. */
  at: number;
}

/** Sentry compares tag keys and values without regard to case. */
export function tagPasses(f: TaggedFilter, tags: FilterFacts["tags"]): boolean {
  const key = f.key.toLowerCase();
  const values = tags.filter(([k]) => k.toLowerCase() === key).map(([, v]) => v.toLowerCase());
  const want = f.value.toLowerCase();
  switch (f.match) {
    case "is":
      return values.length > 0;
    case "ns":
      return values.length === 0;
    case "eq":
      return values.includes(want);
    case "ne":
      return !values.includes(want);
    case "sw":
      return values.some((v) => v.startsWith(want));
    case "ew":
      return values.some((v) => v.endsWith(want));
    case "co":
      return values.some((v) => v.includes(want));
    case "nc":
      return !values.some((v) => v.includes(want));
  }
}

export function issueFilterPasses(f: IssueFilter, facts: FilterFacts): boolean {
  switch (f.id) {
    case TAGGED_FILTER:
      return tagPasses(f, facts.tags);
    case AGE_FILTER: {
      const edge = facts.firstSeen + f.value * UNIT_MS[f.time];
      return f.comparison_type === "older" ? edge < facts.at : edge > facts.at;
    }
    case ASSIGNED_FILTER:
      if (f.targetType === "Unassigned") return facts.assigneeId === null && facts.assigneeTeamId === null;
      return f.targetType === "Member" ? facts.assigneeId === f.targetIdentifier : facts.assigneeTeamId === f.targetIdentifier;
    case LATEST_RELEASE_FILTER:
      return facts.release !== null && facts.release === facts.latestRelease;
  }
}

const plural = (n: number, unit: string) => `${n} ${unit}${n === 1 ? "" : "s"}`;

export function describeIssueFilter(f: IssueFilter): string {
  switch (f.id) {
    case TAGGED_FILTER:
      return f.match === "is" || f.match === "ns"
        ? `The event's tag ${f.key} ${TAG_MATCHES[f.match]}`
        : `The event's tag ${f.key} ${TAG_MATCHES[f.match]} ${f.value}`;
    case AGE_FILTER:
      return `The issue is ${f.comparison_type} than ${plural(f.value, f.time)}`;
    case ASSIGNED_FILTER:
      if (f.targetType === "Unassigned") return "The issue is unassigned";
      return f.targetType === "Team"
        ? `The issue is assigned to team ${f.targetIdentifier}`
        : `The issue is assigned to member ${f.targetIdentifier}`;
    case LATEST_RELEASE_FILTER:
      return "The event is from the latest release";
  }
}
