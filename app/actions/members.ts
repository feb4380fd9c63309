"use server";

import { revalidatePath } from "next/cache";
import { redirect } from "next/navigation";
import { invalidInput } from "@/src/core/errors";
import type { OrgAccess } from "@/src/core/orgs/access";
import { updateOrganization } from "@/src/core/orgs/create-org";
import { changeMemberRole, memberOf, removeMember, setOpenMembership } from "@/src/core/orgs/members";
import { ROLE_INFO } from "@/src/core/orgs/roles";
import { memberTarget, orgTarget } from "@/src/core/audit/targets";
import { action } from "../lib/action";
import { field } from "../lib/forms";

/** The member a form names by user id (hidden field `userId`). */
function userIdOf(form: FormData): number {
  const id = Number(field(form, "userId"));
  if (!Number.isInteger(id) || id <= 0) throw invalidInput("choose a member");
  return id;
}

const refresh = (access: OrgAccess) => revalidatePath(`/orgs/${access.org.slug}`, "layout");

export const changeMemberRoleAction = action("member:write", async ({ ctx, access, form, audit }) => {
  const before = await memberOf(ctx, access.org.id, userIdOf(form));
  const member = await changeMemberRole({ ctx, input: { access, userId: before.userId, role: field(form, "role") } });
  await audit({ event: "member.edit", target: memberTarget(member), before: { role: before.role }, after: { role: member.role } });
  refresh(access);
  return { notice: `${member.name || member.email} is now ${ROLE_INFO[member.role].label.toLowerCase()}.` };
});

export const removeMemberAction = action("member:write", async ({ ctx, user, access, form, audit }) => {
  const userId = userIdOf(form);
  if (userId === user.id) throw invalidInput("use “Leave organization” to leave");
  const member = await memberOf(ctx, access.org.id, userId);
  await removeMember({ ctx, input: { access, actorId: user.id, userId } });
  await audit({ event: "member.remove", target: memberTarget(member), before: { role: member.role } });
  refresh(access);
  return { notice: `Removed ${member.name || member.email}.` };
});

export const leaveOrganizationAction = action("member:leave", async ({ ctx, user, access, audit }) => {
  await removeMember({ ctx, input: { access, actorId: user.id, userId: user.id } });
  await audit({ event: "member.leave", target: memberTarget({ userId: user.id, email: user.email }), before: { role: access.role } });
  revalidatePath("/orgs");
  redirect("/orgs");
});

export const updateOrganizationAction = action(
  "org:write",
  async ({ ctx, access, form, audit }) => {
    const org = await updateOrganization({
      ctx,
      input: { org: access.org, change: { name: field(form, "name"), slug: field(form, "slug") } },
    });
    await audit({
      event: "org.edit",
      target: orgTarget(org),
      before: { name: access.org.name, slug: access.org.slug },
      after: { name: org.name, slug: org.slug },
    });
    if (org.slug !== access.org.slug) redirect(`/orgs/${org.slug}/settings`);
    refresh(access);
    return { notice: "Saved." };
  },
  { keep: ["name", "slug"] },
);

export const setOpenMembershipAction = action("org:write", async ({ ctx, access, form, audit }) => {
  const open = field(form, "open") === "1";
  await setOpenMembership(ctx, access, open);
  const before = { openMembership: access.org.open_membership === 1 };
  await audit({ event: "org.edit", target: orgTarget(access.org), before, after: { openMembership: open } });
  refresh(access);
  return { notice: open ? "Members now see every project." : "Members and admins now see only their teams' projects." };
});
