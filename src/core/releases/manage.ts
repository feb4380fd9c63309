import type { Ctx } from "../context";
import { invalidInput, notFound } from "../errors";
import type { OrgScope } from "../orgs/access";
import type { NewCommit, ReleaseRecord } from "../ports/releases";
import { resolveProjects } from "./projects";
import { dateOf, NewReleaseBody, UpdateReleaseBody, type RefBody, type CommitBody } from "./schemas";
import type { z } from "zod";

function parse<T>(schema: z.ZodType<T>, body: unknown): T {
  const r = schema.safeParse(body);
  if (!r.success) {
    const issue = r.error.issues[0];
    throw invalidInput(`${issue?.path.join(".") || "body"}: ${issue?.message ?? "invalid"}`);
  }
  return r.data;
}

/** A release the user may see: in the organization and, with open membership off, on one of their projects (or none). */
export async function findRelease(ctx: Ctx, scope: OrgScope, version: string): Promise<ReleaseRecord> {
  const release = await ctx.releases.release(scope.org.id, version);
  const visible =
    release && (scope.projectIds === null || release.projects.length === 0 || release.projects.some((p) => scope.projectIds?.has(p.id)));
  if (!release || !visible) throw notFound("Release not found");
  return release;
}

/** Head commits by registered repository (`--commit repo@from..to`); the head is recorded as the release's commit. */
async function applyRefs(ctx: Ctx, scope: OrgScope, release: ReleaseRecord, refs: readonly z.infer<typeof RefBody>[]) {
  const repos = await ctx.releases.repositories(scope.org.id);
  const heads = refs.map((r) => {
    const repo = repos.find((x) => x.name.toLowerCase() === r.repository.toLowerCase());
    if (!repo) throw invalidInput(`Invalid repository names: ${r.repository}`);
    return { repositoryId: repo.id, key: r.commit, previousKey: r.previousCommit ?? null };
  });
  await ctx.releases.setHeadCommits(release.id, heads);
  // Without a provider integration the commits between the two cannot be fetched: the head stands for them.
  await ctx.releases.setCommits(
    release.id,
    heads.map((h) => ({ repositoryId: h.repositoryId, key: h.key, message: null, authorName: null, authorEmail: null, timestamp: null })),
  );
}

/** Commits from the local git tree (`--local`); a repository named by a commit is registered if it is new, as Sentry does. */
async function applyCommits(ctx: Ctx, scope: OrgScope, release: ReleaseRecord, commits: readonly z.infer<typeof CommitBody>[]) {
  const repos = await ctx.releases.repositories(scope.org.id);
  const out: NewCommit[] = [];
  for (const c of commits) {
    const name = c.repository || "unknown";
    let repo = repos.find((x) => x.name.toLowerCase() === name.toLowerCase());
    if (!repo) {
      repo = (await ctx.releases.insertRepository(scope.org.id, { name, url: null, provider: null }, ctx.now())) ?? undefined;
      if (!repo) throw invalidInput(`repository '${name}' could not be registered`);
      repos.push(repo);
    }
    out.push({
      repositoryId: repo.id,
      key: c.id,
      message: c.message ?? null,
      authorName: c.author_name ?? null,
      authorEmail: c.author_email ?? null,
      timestamp: dateOf(c.timestamp),
    });
  }
  await ctx.releases.setCommits(release.id, out);
}

/** `POST /organizations/{org}/releases/`: creates the release (201) or adds projects to an existing one (208, Sentry's answer). */
export async function createRelease({ ctx, input }: { ctx: Ctx; input: { scope: OrgScope; body: unknown; projectSlug?: string } }) {
  const body = parse(NewReleaseBody, input.body);
  const names = input.projectSlug ? [...body.projects, input.projectSlug] : body.projects;
  if (names.length === 0) throw invalidInput("projects: a release needs at least one project");
  const projectIds = await resolveProjects(ctx, input.scope, names);
  const { release, created } = await ctx.releases.upsertRelease(
    input.scope.org.id,
    {
      version: body.version,
      ref: body.ref ?? null,
      url: body.url ?? null,
      dateStarted: dateOf(body.dateStarted),
      dateReleased: dateOf(body.dateReleased),
    },
    projectIds,
    ctx.now(),
  );
  if (body.refs) await applyRefs(ctx, input.scope, release, body.refs);
  if (body.commits) await applyCommits(ctx, input.scope, release, body.commits);
  const latest = body.refs || body.commits ? await findRelease(ctx, input.scope, body.version) : release;
  return { release: latest, created };
}

/** `PUT /organizations/{org}/releases/{version}/`: finalize (`dateReleased`), refs, commits, projects, status. */
export async function updateRelease({ ctx, input }: { ctx: Ctx; input: { scope: OrgScope; version: string; body: unknown } }) {
  const body = parse(UpdateReleaseBody, input.body);
  const release = await findRelease(ctx, input.scope, input.version);
  await ctx.releases.updateRelease(release.id, {
    ...(body.ref !== undefined ? { ref: body.ref } : {}),
    ...(body.url !== undefined ? { url: body.url } : {}),
    ...(body.dateReleased !== undefined ? { dateReleased: dateOf(body.dateReleased) } : {}),
    ...(body.status !== undefined ? { status: body.status } : {}),
    ...(body.projects ? { projectIds: await resolveProjects(ctx, input.scope, body.projects) } : {}),
  });
  if (body.refs) await applyRefs(ctx, input.scope, release, body.refs);
  if (body.commits) await applyCommits(ctx, input.scope, release, body.commits);
  return findRelease(ctx, input.scope, input.version);
}

/**
 * `DELETE /organizations/{org}/releases/{version}/`: as Sentry, a release that issues, events or
 * sessions still name is refused with a 400 saying so (sentry-cli prints it), rather than removed
 * from under them; one nothing names is removed with its commits and deploys.
 */
export async function deleteRelease({ ctx, input }: { ctx: Ctx; input: { scope: OrgScope; version: string } }) {
  const release = await findRelease(ctx, input.scope, input.version);
  const references = await ctx.releases.releaseReferences(
    release.projects.map((p) => p.id),
    release.version,
  );
  if (references.issues) throw invalidInput("This release is referenced by active issues and cannot be removed.");
  if (references.health) throw invalidInput("This release has health data and cannot be removed.");
  await ctx.releases.deleteRelease(release.id);
}

/** Releases newest first, of one project or of every project the user sees. */
export async function listReleases(ctx: Ctx, scope: OrgScope, projectId: number | null, limit = 100): Promise<ReleaseRecord[]> {
  const projectIds = projectId !== null ? [projectId] : scope.projectIds === null ? null : [...scope.projectIds];
  return ctx.releases.releases(scope.org.id, { projectIds, limit });
}
