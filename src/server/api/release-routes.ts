import { createDeploy } from "../../core/releases/deploys";
import { createRelease, deleteRelease, findRelease, listReleases, updateRelease } from "../../core/releases/manage";
import type { Ctx } from "../../core/context";
import type { OrgScope } from "../../core/orgs/access";
import type { ReleaseRecord } from "../../core/ports/releases";
import { releaseCounts } from "../../core/releases/counts";
import { registerRepository } from "../../core/releases/repositories";
import { projectInOrg } from "../../core/projects/queries";
import { JsonWithHeaders, NoContent } from "./raw";
import { route, type ApiRoute } from "./route";
import { serializeCommit, serializeDeploy, serializeRelease, serializeRepository } from "./serialize-releases";

const v = (params: string[]) => params[1] ?? "";

/** Releases as the API shows them, with the counts of their events. */
async function withCounts(ctx: Ctx, access: OrgScope, releases: readonly ReleaseRecord[]) {
  const counts = await releaseCounts(ctx, releases, access.projectIds);
  return releases.map((r) => serializeRelease(r, counts.get(r.id)));
}
async function withCount(ctx: Ctx, access: OrgScope, release: ReleaseRecord) {
  const [shown] = await withCounts(ctx, access, [release]);
  return shown!;
}

/**
 * Releases, deploys and repositories as sentry-cli 3.x calls them, Sentry's paths and shapes:
 * https://github.com/getsentry/sentry-cli/blob/fb79c59a35d79135d9eb84f4845572ce4548c455/src/api/mod.rs
 */
export const RELEASE_ROUTES: ApiRoute[] = [
  route("GET", "/organizations/{}/releases", "release:read", async ({ ctx, access }) =>
    withCounts(ctx, access, await listReleases(ctx, access, null)),
  ),
  route("POST", "/organizations/{}/releases", "release:write", async ({ ctx, access, body }) => {
    const { release, created } = await createRelease({ ctx, input: { scope: access, body } });
    return new JsonWithHeaders(await withCount(ctx, access, release), {}, created ? 201 : 208);
  }),
  route("GET", "/projects/{}/{}/releases", "release:read", async ({ ctx, access, params: [, project] }) => {
    const p = await projectInOrg(ctx, access, project ?? "");
    return withCounts(ctx, access, await listReleases(ctx, access, p.id));
  }),
  route("POST", "/projects/{}/{}/releases", "release:write", async ({ ctx, access, body, params: [, project] }) => {
    const p = await projectInOrg(ctx, access, project ?? "");
    const { release, created } = await createRelease({ ctx, input: { scope: access, body, projectSlug: p.slug } });
    return new JsonWithHeaders(await withCount(ctx, access, release), {}, created ? 201 : 208);
  }),
  route("GET", "/organizations/{}/releases/{}", "release:read", async ({ ctx, access, params }) =>
    withCount(ctx, access, await findRelease(ctx, access, v(params))),
  ),
  route("PUT", "/organizations/{}/releases/{}", "release:write", async ({ ctx, access, params, body }) =>
    withCount(ctx, access, await updateRelease({ ctx, input: { scope: access, version: v(params), body } })),
  ),
  route("DELETE", "/organizations/{}/releases/{}", "release:write", async ({ ctx, access, params }) => {
    await deleteRelease({ ctx, input: { scope: access, version: v(params) } });
    return new NoContent();
  }),
  route("GET", "/organizations/{}/releases/{}/commits", "release:read", async ({ ctx, access, params }) => {
    const release = await findRelease(ctx, access, v(params));
    return (await ctx.releases.commits(release.id)).map(serializeCommit);
  }),
  route("GET", "/organizations/{}/releases/{}/previous-with-commits", "release:read", async ({ ctx, access, params }) => {
    const release = await findRelease(ctx, access, v(params));
    const previous = await ctx.releases.previousWithCommits(access.org.id, release);
    // sentry-cli reads `{}` as "no previous release" (`OptionalReleaseInfo` in
    // https://github.com/getsentry/sentry-cli/blob/fb79c59a35d79135d9eb84f4845572ce4548c455/src/api/mod.rs).
    return previous ? serializeRelease(previous) : {};
  }),
  route("GET", "/organizations/{}/releases/{}/deploys", "release:read", async ({ ctx, access, params }) => {
    const release = await findRelease(ctx, access, v(params));
    return (await ctx.releases.deploys(release.id)).map(serializeDeploy);
  }),
  route("POST", "/organizations/{}/releases/{}/deploys", "release:write", async ({ ctx, access, params, body }) => {
    const deploy = await createDeploy({ ctx, input: { scope: access, version: v(params), body } });
    return new JsonWithHeaders(serializeDeploy(deploy), {}, 201);
  }),
  route("GET", "/organizations/{}/repos", "org:read", async ({ ctx, access }) =>
    (await ctx.releases.repositories(access.org.id)).map(serializeRepository),
  ),
  route("POST", "/organizations/{}/repos", "repo:write", async ({ ctx, access, body, audit }) => {
    const repo = await registerRepository({ ctx, input: { scope: access, body } });
    await audit({ event: "repo.add", target: { type: "repo", id: repo.id, label: repo.name } });
    return new JsonWithHeaders(serializeRepository(repo), {}, 201);
  }),
];
