import { z } from "zod";
import type { Ctx } from "../context";
import { conflict } from "../errors";
import { validate } from "../validate";
import { hashPassword } from "./password";
import { Email, Password, Slug } from "./schemas";
import type { User } from "./user";

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
  const admin = { email: data.email, name: data.name, passwordHash: await hashPassword(data.password), superuser: true };
  const slug = data.orgSlug;
  const result = await ctx.accounts.addFirstAdmin(admin, { slug, name: data.orgName ?? slug }, ctx.now());
  if ("user" in result) return result.user;
  throw result.refused === "set-up"
    ? conflict("Telltale is already set up: sign in instead")
    : conflict(`an organization with slug '${slug}' already exists`);
}
