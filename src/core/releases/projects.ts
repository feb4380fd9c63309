import type { Ctx } from "../context";
import { invalidInput } from "../errors";
import type { OrgScope } from "../orgs/access";
import { listProjects } from "../projects/queries";

/** The projects named by slug or id among those the user sees; any other name refuses the request, as Sentry does. */
export async function resolveProjects(ctx: Ctx, scope: OrgScope, names: readonly (string | number)[]): Promise<number[]> {
  if (names.length === 0) return [];
  const projects = await listProjects(ctx, scope);
  const ids: number[] = [];
  for (const name of names) {
    const p = projects.find((x) => x.slug === String(name) || String(x.id) === String(name));
    if (!p) throw invalidInput("Invalid project ids or slugs");
    if (!ids.includes(p.id)) ids.push(p.id);
  }
  return ids;
}
