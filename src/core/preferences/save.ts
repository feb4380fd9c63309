import type { Ctx } from "../context";
import { notFound } from "../errors";
import { listOrganizations } from "../orgs/access";
import { listProjects } from "../projects/queries";
import { validate } from "../validate";
import { NotificationChoicesInput, ProjectAlertsInput } from "./schemas";

/** The signed-in person, as the organizations' access checks take them. */
type User = Parameters<typeof listOrganizations>[1];

export interface ProjectChoice {
  id: number;
  orgSlug: string;
  slug: string;
  name: string;
}

/** The projects a person sees, across their organizations: those their issue alerts may be set for. */
export async function projectChoices(ctx: Ctx, user: User): Promise<ProjectChoice[]> {
  const out: ProjectChoice[] = [];
  for (const access of await listOrganizations(ctx, user))
    for (const p of await listProjects(ctx, access)) out.push({ id: p.id, orgSlug: access.org.slug, slug: p.slug, name: p.name });
  return out;
}

/** Saves a person's own choices: issue alerts, and the workflow emails (assigned, comments, resolutions). */
export async function saveNotificationChoices({ ctx, user, input }: { ctx: Ctx; user: User; input: NotificationChoicesInput }) {
  const choices = validate(NotificationChoicesInput, input);
  await ctx.userNotifications.setChoices(user.id, choices, ctx.now());
  return choices;
}

/**
 * Sets issue alerts for one project apart from the person's own choice, or back to it
 * (`default`). Only a project the person sees; any other is "not found", as a missing one.
 */
/** `input` as a form sends it; validated here. */
export async function saveProjectAlerts({
  ctx,
  user,
  input,
}: {
  ctx: Ctx;
  user: User;
  input: { projectId: string | number; issueAlerts: string };
}) {
  const { projectId, issueAlerts } = validate(ProjectAlertsInput, input);
  const project = (await projectChoices(ctx, user)).find((p) => p.id === projectId);
  if (!project) throw notFound("that project does not exist");
  await ctx.userNotifications.setProjectAlerts(user.id, projectId, issueAlerts === "default" ? null : issueAlerts === "on", ctx.now());
  return project;
}
