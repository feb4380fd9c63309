import { z } from "zod";
import type { User } from "../../db/schema";
import type { Ctx } from "../context";
import { conflict } from "../errors";
import { insertOrganization } from "../orgs/create-org";
import { validate } from "../validate";
import { countUsers, insertUser } from "./create-user";
import { Email, Password, Slug } from "./schemas";

export const FirstAdmin = z.object({
  email: Email,
  password: Password,
  name: z.string().trim().max(200).default(""),
  orgSlug: Slug,
  /** Absent (API callers), the slug names the organization; sent, it must say something. */
  orgName: z.string().trim().min(1, "name your organization").max(200).optional(),
});
export type FirstAdmin = z.input<typeof FirstAdmin>;

/**
 * First run: with no user yet, anyone who reaches the UI may create the first admin
 * (a superuser) and their organization. Refused once any user exists.
 */
export async function setupFirstAdmin({ ctx, input }: { ctx: Ctx; input: FirstAdmin }): Promise<User> {
  const data = validate(FirstAdmin, input);
  return ctx.db.transaction().execute(async (trx) => {
    if ((await countUsers(trx)) > 0) throw conflict("Telltale is already set up: sign in instead");
    const now = ctx.now();
    const user = await insertUser(trx, now, { email: data.email, password: data.password, name: data.name, superuser: true });
    await insertOrganization(trx, now, { slug: data.orgSlug, name: data.orgName ?? data.orgSlug, ownerId: user.id });
    return user;
  });
}
