import { invalidInput } from "../../core/errors";
import { groupingState, upgradeGrouping, type GroupingState } from "../../core/projects/grouping-config";
import { projectInOrg } from "../../core/projects/queries";
import type { Project } from "../../db/schema";
import { route, type ApiRoute } from "./route";

/** A project as Sentry's project details answer spells it, the grouping fields included. */
function serializeProject(project: Project, grouping: GroupingState) {
  return {
    id: String(project.id),
    slug: project.slug,
    name: project.name,
    platform: project.platform,
    dateCreated: new Date(project.created_at).toISOString(),
    groupingConfig: grouping.config,
    secondaryGroupingConfig: grouping.transitioning ? grouping.previous : null,
    // Sentry gives the expiry in seconds since the epoch.
    secondaryGroupingExpiry:
      grouping.transitioning && grouping.transitionUntil !== null ? Math.floor(grouping.transitionUntil / 1000) : null,
    groupingConfigUpgrades: grouping.upgrades,
  };
}

/** `GET|PUT /api/0/projects/{org}/{project}/`: details, and the grouping upgrade (`{"groupingConfig": "<newer version>"}`). */
export const PROJECT_ROUTES: ApiRoute[] = [
  route("GET", "/projects/{}/{}", "project:read", async ({ ctx, access, params: [, slug] }) => {
    const project = await projectInOrg(ctx, access, slug ?? "");
    return serializeProject(project, await groupingState(ctx, project.id));
  }),
  route("PUT", "/projects/{}/{}", "project:settings:write", async ({ ctx, access, params: [, slug], body }) => {
    const project = await projectInOrg(ctx, access, slug ?? "");
    const fields = body !== null && typeof body === "object" ? (body as Record<string, unknown>) : {};
    const unknown = Object.keys(fields).filter((k) => k !== "groupingConfig" && k !== "secondaryGroupingDays");
    if (unknown.length > 0 || typeof fields.groupingConfig !== "string") {
      throw invalidInput('send {"groupingConfig": "<a newer version>"} and optionally "secondaryGroupingDays" (0 to 365)');
    }
    const days = fields.secondaryGroupingDays;
    if (days !== undefined && typeof days !== "number") throw invalidInput("secondaryGroupingDays is a number of days");
    const state = await upgradeGrouping({
      ctx,
      input: { projectId: project.id, to: fields.groupingConfig, ...(days !== undefined ? { transitionDays: days } : {}) },
    });
    return serializeProject(project, state);
  }),
];
