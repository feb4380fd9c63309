"use server";

import { revalidatePath } from "next/cache";
import { redirect } from "next/navigation";
import { invalidInput } from "@/src/core/errors";
import type { OrgAccess } from "@/src/core/orgs/access";
import { updateOrganization } from "@/src/core/orgs/create-org";
import { changeMemberRole, memberOf, removeMember, setOpenMembership } from "@/src/core/orgs/members";
import { ROLE_INFO } from "@/src/core/orgs/roles";
import { action } from "../lib/action";
import { field } from "../lib/forms";

/** The member a form names by user id (hidden field `userId`). */
function userIdOf(form: FormData): number {
  const id = Number(field(form, "userId"));
  if (!Number.isInteger(id) || id <= 0) throw invalidInput("choose a member");
  return id;
}

const refresh = (access: OrgAccess) => revalidatePath(`/orgs/${access.org.slug}`, "layout");

export const changeMemberRoleAction = action("member:write", async ({ ctx, access, form }) => {
  const member = await changeMemberRole({ ctx, input: { access, userId: userIdOf(form), role: field(form, "role") } });
  refresh(access);
  return { notice: `${member.name || member.email} is now ${ROLE_INFO[member.role].label.toLowerCase()}.` };
});

export const removeMemberAction = action("member:write", async ({ ctx, user, access, form }) => {
  const userId = userIdOf(form);
  if (userId === user.id) throw invalidInput("use “Leave organization” to leave");
  const member = await memberOf(ctx, access.org.id, userId);
  await removeMember({ ctx, input: { access, actorId: user.id, userId } });
  refresh(access);
  return { notice: `Removed ${member.name || member.email}.` };
});

export const leaveOrganizationAction = action("member:leave", async ({ ctx, user, access }) => {
  await removeMember({ ctx, input: { access, actorId: user.id, userId: user.id } });
  revalidatePath("/orgs");
  redirect("/orgs");
});

export const updateOrganizationAction = action(
  "org:write",
  async ({ ctx, access, form }) => {
    const org = await updateOrganization({
      ctx,
      input: { org: access.org, change: { name: field(form, "name"), slug: field(form, "slug") } },
    });
    if (org.slug !== access.org.slug) redirect(`/orgs/${org.slug}/settings`);
    refresh(access);
    return { notice: "Saved." };
  },
  { keep: ["name", "slug"] },
);

export const setOpenMembershipAction = action("org:write", async ({ ctx, access, form }) => {
  const open = field(form, "open") === "1";
  await setOpenMembership(ctx, access, open);
  refresh(access);
  return { notice: open ? "Members now see every project." : "Members and admins now see only their teams' projects." };
});
