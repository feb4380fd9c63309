import { z } from "zod";

export const Email = z.string().trim().toLowerCase().max(254).email("enter a valid email address");

export const Password = z.string().min(8, "use at least 8 characters for the password").max(1024, "the password is too long");

export const Slug = z
  .string()
  .trim()
  .toLowerCase()
  .min(1, "the slug is empty")
  .max(50, "use at most 50 characters for the slug")
  .regex(/^[a-z0-9][a-z0-9_-]*$/, "use lowercase letters, digits, '-' and '_' for the slug, starting with a letter or digit");

export const NewUser = z.object({
  email: Email,
  password: Password,
  name: z.string().trim().max(200).default(""),
  superuser: z.boolean().default(false),
});
export type NewUser = z.input<typeof NewUser>;
