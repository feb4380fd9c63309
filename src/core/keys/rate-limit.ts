import { z } from "zod";
import type { Ctx } from "../context";
import { notFound } from "../errors";
import { validate } from "../validate";

export const KeyRateLimit = z.union([
  z.null(),
  z.object({
    count: z.coerce.number().int().min(0, "the count cannot be negative").max(1_000_000_000),
    windowSeconds: z.coerce.number().int().min(1, "the window is at least 1 second").max(86_400, "the window is at most a day"),
  }),
]);

/** Sets (or with null, removes) the events-per-window limit of one key of a project. */
export async function setKeyRateLimit({
  ctx,
  input,
}: {
  ctx: Ctx;
  input: { projectId: number; keyId: number; limit: z.input<typeof KeyRateLimit> };
}): Promise<void> {
  const limit = validate(KeyRateLimit, input.limit);
  if (!(await ctx.projectKeys.setRateLimit(input.projectId, input.keyId, limit)))
    throw notFound(`key ${input.keyId} does not exist in this project`);
}
