import type { Ctx } from "../context";
import { conflict, invalidInput } from "../errors";
import type { OrgScope } from "../orgs/access";
import { RepositoryBody } from "./schemas";

/** `POST /organizations/{org}/repos/`: registers a repository by name, so `set-commits --commit name@a..b` may name it. */
export async function registerRepository({ ctx, input }: { ctx: Ctx; input: { scope: OrgScope; body: unknown } }) {
  const body = RepositoryBody.safeParse(input.body);
  if (!body.success) throw invalidInput(`${body.error.issues[0]?.path.join(".") || "body"}: ${body.error.issues[0]?.message ?? "invalid"}`);
  const repo = await ctx.releases.insertRepository(
    input.scope.org.id,
    { name: body.data.name, url: body.data.url ?? null, provider: body.data.provider ?? null },
    ctx.now(),
  );
  if (!repo) throw conflict(`a repository named '${body.data.name}' is already registered`);
  return repo;
}
