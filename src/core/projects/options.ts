import { z } from "zod";
import { inboundFilterConfig } from "../filter/index";
import type { InboundFilterConfig } from "../filter/types";
import type { Ctx } from "../context";
import { GROUPING_CONFIG, type ProjectGrouping } from "../grouping/index";

/** A project's stored filter switches: only what differs from the defaults is kept. */
const StoredFilters = z
  .object({
    scriptError: z.boolean(),
    resizeObserver: z.boolean(),
    browserExtensions: z.boolean(),
    localhost: z.boolean(),
    webCrawlers: z.boolean(),
    legacyBrowsers: z.boolean(),
    errorMessages: z.array(z.string().max(500)).max(100),
    releases: z.array(z.string().max(200)).max(100),
  })
  .partial();
export type StoredFilters = z.infer<typeof StoredFilters>;

/** Server-side scrubbing options of a project (docs/protocol.md#data-scrubbing): defaults scrub, these refine it. */
export const Scrubbing = z.object({
  extraSensitiveFields: z.array(z.string().trim().min(1).max(100)).max(100).default([]),
  safeFields: z.array(z.string().trim().min(1).max(100)).max(100).default([]),
  storeIpAddresses: z.boolean().default(true),
});
export type Scrubbing = z.infer<typeof Scrubbing>;

export interface ProjectOptions {
  filters: InboundFilterConfig;
  storedFilters: StoredFilters;
  scrubbing: Scrubbing;
  grouping: ProjectGrouping;
}

function parseJson<T>(schema: z.ZodType<T>, text: string | undefined, fallback: T): T {
  if (!text) return fallback;
  try {
    const result = schema.safeParse(JSON.parse(text));
    return result.success ? result.data : fallback;
  } catch {
    return fallback;
  }
}

export async function projectOptions(ctx: Ctx, projectId: number): Promise<ProjectOptions> {
  const stored = await ctx.projects.options(projectId);
  const storedFilters = parseJson(StoredFilters, stored.filters, {});
  return {
    filters: inboundFilterConfig(storedFilters),
    storedFilters,
    scrubbing: parseJson(Scrubbing, stored.scrubbing, Scrubbing.parse({})),
    grouping: stored.grouping ?? { config: GROUPING_CONFIG, previous: null, transitionUntil: null },
  };
}

function save(ctx: Ctx, projectId: number, option: "filters" | "scrubbing", value: unknown): Promise<void> {
  return ctx.projects.saveOption(projectId, option, JSON.stringify(value));
}

/** Switches filters or replaces glob lists; unspecified filters keep their current state. */
export async function updateFilters({ ctx, input }: { ctx: Ctx; input: { projectId: number; changes: StoredFilters } }): Promise<void> {
  const current = (await projectOptions(ctx, input.projectId)).storedFilters;
  const changes = StoredFilters.parse(input.changes);
  await save(ctx, input.projectId, "filters", { ...current, ...changes });
}

export async function updateScrubbing({
  ctx,
  input,
}: {
  ctx: Ctx;
  input: { projectId: number; scrubbing: z.input<typeof Scrubbing> };
}): Promise<void> {
  await save(ctx, input.projectId, "scrubbing", Scrubbing.parse(input.scrubbing));
}
