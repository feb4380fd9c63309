import { invalidInput } from "../../core/errors";
import { listProjects } from "../../core/projects/queries";
import { assembleBundle } from "../../core/sourcemaps/assemble";
import { chunkUploadOptions, storeChunks } from "../../core/sourcemaps/chunks";
import { readChunkParts } from "./chunk-multipart";
import { requestBaseUrl } from "./request-origin";
import { route, streamRoute, type ApiRoute } from "./route";

/** What `sentry-cli sourcemaps upload` calls: chunk-upload options and chunks, then artifact-bundle assemble. */
export const SOURCEMAP_ROUTES: ApiRoute[] = [
  route("GET", "/organizations/{}/chunk-upload", "release:read", async ({ ctx, access, req }) =>
    chunkUploadOptions(access.org.slug, req ? requestBaseUrl(req, ctx.publicUrl) : ctx.publicUrl),
  ),
  streamRoute("POST", "/organizations/{}/chunk-upload", "release:write", async ({ ctx, access, req }) => {
    if (!req) throw invalidInput("no request body");
    await storeChunks({ ctx, input: { organizationId: access.org.id, chunks: await readChunkParts(req) } });
    return {};
  }),
  route("POST", "/organizations/{}/artifactbundle/assemble", "release:write", async ({ ctx, access, body }) => {
    const projects = await listProjects(ctx, access);
    const resolveProject = (name: string | number) =>
      Promise.resolve(projects.find((p) => p.slug === String(name) || String(p.id) === String(name)) ?? null);
    return assembleBundle({ ctx, input: { scope: access, body, resolveProject } });
  }),
];
