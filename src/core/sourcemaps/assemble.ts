import { createHash } from "node:crypto";
import { z } from "zod";
import type { Ctx } from "../context";
import { invalidInput, isTelltaleError } from "../errors";
import { seesProject, type OrgScope } from "../orgs/access";
import type { Assembly } from "../ports/artifacts";
import { normalizeDebugId, readBundle } from "./bundle";
import { SHA1_HEX } from "./chunks";
import { ARTIFACT_LIMITS } from "./limits";

/** The body of `POST /organizations/{org}/artifactbundle/assemble/`, as Sentry's endpoint validates it. */
export const AssembleRequest = z
  .object({
    checksum: z.string().regex(SHA1_HEX),
    chunks: z.array(z.string().regex(SHA1_HEX)).max(ARTIFACT_LIMITS.maxChunksPerBundle),
    projects: z
      .array(z.union([z.string().max(100), z.number().int()]))
      .min(1)
      .max(100),
    version: z
      .string()
      .regex(/^[^/]+$/)
      .max(250)
      .optional(),
    dist: z.string().max(64).optional(),
  })
  .strict();
export type AssembleRequest = z.infer<typeof AssembleRequest>;

export interface AssembleAnswer {
  state: Assembly["state"];
  missingChunks: string[];
  detail?: string;
}

/** The organization's projects named by slug or id; null when one is not there (or not seen). */
export type ProjectResolver = (nameOrId: string | number) => Promise<{ id: number } | null>;

/**
 * Assembles an artifact bundle from uploaded chunks (sentry-cli
 * https://github.com/getsentry/sentry-cli/blob/fb79c59a35d79135d9eb84f4845572ce4548c455/src/utils/file_upload.rs polls
 * until `ok` or `error`): missing chunks → `not_found` with their list; otherwise the chunks are
 * joined, checked against the whole checksum, opened and indexed, and the chunks dropped. The
 * work is done in this request (bounded by ARTIFACT_LIMITS), so the answer is `ok` or `error`; a
 * later poll gets the stored outcome. A failed bundle stores nothing but its `error` state.
 */
export async function assembleBundle({
  ctx,
  input,
}: {
  ctx: Ctx;
  input: { scope: OrgScope; body: unknown; resolveProject: ProjectResolver };
}): Promise<AssembleAnswer> {
  const parsed = AssembleRequest.safeParse(input.body);
  if (!parsed.success)
    throw invalidInput(
      `invalid assemble request: ${parsed.error.issues[0]?.path.join(".") ?? ""} ${parsed.error.issues[0]?.message ?? ""}`,
    );
  const req = parsed.data;
  if (req.dist !== undefined && req.version === undefined) throw invalidInput("dist requires a release version");
  const projectIds: number[] = [];
  for (const name of req.projects) {
    const p = await input.resolveProject(name);
    if (!p || !seesProject(input.scope, p.id)) throw invalidInput("One or more projects are invalid");
    if (!projectIds.includes(p.id)) projectIds.push(p.id);
  }
  const orgId = input.scope.org.id;
  const known = await ctx.artifacts.assembly(orgId, req.checksum);
  // The same bundle sent again for other projects (it names them, its checksum does not): link it to them.
  if (known?.state === "ok") await ctx.artifacts.linkProjects(orgId, req.checksum, projectIds);
  if (known) return { state: known.state, missingChunks: [], ...(known.detail ? { detail: known.detail } : {}) };
  if (req.chunks.length === 0) return { state: "not_found", missingChunks: [] };
  const missing = await ctx.artifacts.missingChunks(orgId, req.chunks);
  if (missing.length > 0) return { state: "not_found", missingChunks: missing };

  let outcome: Assembly;
  try {
    outcome = await build(ctx, orgId, req, projectIds);
  } catch (e) {
    // A bad bundle is the uploader's error, kept for its polls; anything else is ours (the web API logs it).
    if (!isTelltaleError(e)) throw e;
    outcome = { state: "error", detail: e.message };
  }
  await ctx.artifacts.setAssembly(orgId, req.checksum, outcome, ctx.now());
  await ctx.artifacts.deleteChunks(orgId, req.chunks);
  return { state: outcome.state, missingChunks: [], ...(outcome.detail ? { detail: outcome.detail } : {}) };
}

async function build(ctx: Ctx, orgId: number, req: AssembleRequest, projectIds: number[]): Promise<Assembly> {
  const chunks = await ctx.artifacts.readChunks(orgId, req.chunks);
  if (!chunks) throw invalidInput("a chunk went missing during assembly");
  const size = chunks.reduce((n, c) => n + c.length, 0);
  if (size > ARTIFACT_LIMITS.maxBundleSize) throw invalidInput(`the bundle is over ${ARTIFACT_LIMITS.maxBundleSize} bytes`);
  const bytes = Buffer.concat(chunks, size);
  const actual = createHash("sha1").update(bytes).digest("hex");
  if (actual !== req.checksum) throw invalidInput(`the bundle's SHA-1 is ${actual}, not ${req.checksum}`);
  const { manifest, files } = await readBundle(bytes);
  await ctx.artifacts.saveBundle(
    {
      organizationId: orgId,
      bundleId: normalizeDebugId(manifest.debug_id) ?? actual,
      checksum: req.checksum,
      // The request's release and dist win over the manifest's, as Sentry's assemble task does.
      release: req.version ?? manifest.release ?? null,
      dist: req.dist ?? manifest.dist ?? null,
      size,
      projectIds,
      files,
    },
    ctx.now(),
  );
  return { state: "ok", detail: null };
}
