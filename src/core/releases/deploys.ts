import type { Ctx } from "../context";
import { invalidInput } from "../errors";
import type { OrgScope } from "../orgs/access";
import { findRelease } from "./manage";
import { dateOf, DeployBody } from "./schemas";

/** `POST …/releases/{version}/deploys/`: a deploy of the release to an environment, finished now unless told. */
export async function createDeploy({ ctx, input }: { ctx: Ctx; input: { scope: OrgScope; version: string; body: unknown } }) {
  // The release first: a deploy of a release that does not exist is a 404 whatever the body says.
  const release = await findRelease(ctx, input.scope, input.version);
  const body = DeployBody.safeParse(input.body);
  if (!body.success) throw invalidInput(`${body.error.issues[0]?.path.join(".") || "body"}: ${body.error.issues[0]?.message ?? "invalid"}`);
  return ctx.releases.addDeploy(release.id, {
    environment: body.data.environment,
    name: body.data.name ?? null,
    url: body.data.url ?? null,
    dateStarted: dateOf(body.data.dateStarted),
    dateFinished: dateOf(body.data.dateFinished) ?? ctx.now(),
  });
}
