"use server";

import { revalidatePath } from "next/cache";
import { createUser } from "@/src/core/accounts/create-user";
import { adminResetLink, deleteUser, setSuperuser } from "@/src/core/accounts/manage-users";
import { invalidInput } from "@/src/core/errors";
import { superuserAction } from "../lib/action";
import { field } from "../lib/forms";

function userId(form: FormData): number {
  const id = Number(field(form, "userId"));
  if (!Number.isSafeInteger(id) || id <= 0) throw invalidInput("no such user");
  return id;
}

export const createUserAction = superuserAction(
  "user:admin",
  async ({ ctx, form }) => {
    const user = await createUser({
      ctx,
      input: {
        email: field(form, "email"),
        name: field(form, "name"),
        password: field(form, "password"),
        superuser: field(form, "superuser") === "on",
      },
    });
    revalidatePath("/admin/users");
    return { notice: `Created ${user.email}.` };
  },
  { keep: ["email", "name"] },
);

export const setSuperuserAction = superuserAction("user:admin", async ({ ctx, user, form }) => {
  const superuser = field(form, "superuser") === "1";
  const changed = await setSuperuser(ctx, user, { userId: userId(form), superuser });
  revalidatePath("/admin/users");
  return { notice: superuser ? `${changed.email} is now a superuser.` : `${changed.email} is no longer a superuser.` };
});

export const resetLinkAction = superuserAction("user:admin", async ({ ctx, user, form }) => {
  const result = await adminResetLink(ctx, user, userId(form));
  if (result.sent) return { notice: "Sent a password-reset link by email. It works once, within an hour." };
  return { notice: "Email is not set up: copy this link to the user. It works once, within an hour.", values: { link: result.link } };
});

export const deleteUserAction = superuserAction("user:admin", async ({ ctx, user, form }) => {
  await deleteUser(ctx, user, userId(form));
  revalidatePath("/admin/users");
  return { notice: "Deleted the user." };
});
