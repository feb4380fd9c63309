import type { Ctx } from "../context";
import { invalidInput, notFound } from "../errors";
import type { MemberRecord } from "../ports/directory";
import type { OrgAccess } from "./access";
import { assertMayManage, isRole, ROLES } from "./roles";

export async function memberOf(ctx: Ctx, orgId: number, userId: number): Promise<MemberRecord> {
  const member = (await ctx.directory.members(orgId)).find((m) => m.userId === userId);
  if (!member) throw notFound("that member does not exist");
  return member;
}

/**
 * Changes a member's role. Nobody gives a role above their own, only owners change owners, and
 * the last owner stays an owner (an organization always has one).
 */
export async function changeMemberRole({
  ctx,
  input,
}: {
  ctx: Ctx;
  input: { access: OrgAccess; userId: number; role: string };
}): Promise<MemberRecord> {
  const { access, userId, role } = input;
  if (!isRole(role)) throw invalidInput(`role: use one of ${ROLES.join(", ")}`, { role: `use one of ${ROLES.join(", ")}` });
  const found = await ctx.directory.setMemberRole(access.org.id, userId, role, (current) => {
    assertMayManage(access.role, current.role, role);
    if (current.role === "owner" && role !== "owner" && current.owners <= 1)
      throw invalidInput("the organization's last owner stays an owner: make someone else an owner first");
  });
  if (!found) throw notFound("that member does not exist");
  return memberOf(ctx, access.org.id, userId);
}

/**
 * Ends a membership: removing someone (for those who manage members) or leaving (oneself). Their
 * team places, issue assignments and organization tokens there end with it; the last owner can
 * neither leave nor be removed.
 */
export async function removeMember({
  ctx,
  input,
}: {
  ctx: Ctx;
  input: { access: OrgAccess; actorId: number; userId: number };
}): Promise<void> {
  const { access, actorId, userId } = input;
  const found = await ctx.directory.removeMember(
    access.org.id,
    userId,
    (current) => {
      if (userId !== actorId) assertMayManage(access.role, current.role);
      if (current.role === "owner" && current.owners <= 1)
        throw invalidInput(
          userId === actorId
            ? "you are the organization's last owner: make someone else an owner before you leave"
            : "the organization's last owner cannot be removed",
        );
    },
    ctx.now(),
  );
  if (!found) throw notFound("that member does not exist");
}

/** Sets whether members see every project (open membership) or only their teams' (org:write). */
export async function setOpenMembership(ctx: Ctx, access: OrgAccess, open: boolean): Promise<void> {
  await ctx.directory.setOpenMembership(access.org.id, open);
}
