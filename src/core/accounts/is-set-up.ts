import type { Ctx } from "../context";

/** Whether Telltale has its first user: before that every page leads to /setup. */
export async function isSetUp(ctx: Ctx): Promise<boolean> {
  return (await ctx.accounts.countUsers()) > 0;
}
