import type { Ctx } from "../context";

export interface FirstIssue {
  id: number;
  title: string;
}

/**
 * The project's oldest issue, or null while no error has been digested: what the setup
 * guide's "waiting for the first event" panel turns into a link to.
 */
export function firstIssue(ctx: Ctx, projectId: number): Promise<FirstIssue | null> {
  return ctx.projects.firstIssue(projectId);
}
