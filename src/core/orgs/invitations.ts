import { createHash, randomBytes } from "node:crypto";
import { z } from "zod";
import { createUser } from "../accounts/create-user";
import { Email, Password } from "../accounts/schemas";
import type { Ctx } from "../context";
import { renderEmail } from "../email/templates";
import { conflict, forbidden, invalidInput, notFound } from "../errors";
import type { PendingInvitation } from "../ports/directory";
import { validate } from "../validate";
import type { OrgAccess } from "./access";
import { assertMayManage, isRole, ROLE_INFO, ROLES, type Role } from "./roles";

/** How long an invitation link works. */
export const INVITATION_DAYS = 7;

const hashToken = (token: string) => createHash("sha256").update(token).digest("hex");

export const inviteLink = (ctx: Ctx, token: string) => `${ctx.publicUrl}/invite/${token}`;

export const NewInvitation = z.object({
  email: Email,
  role: z.string().refine(isRole, `role: use one of ${ROLES.join(", ")}`),
  /** Slugs of teams the new member joins. */
  teams: z.array(z.string()).max(100).default([]),
});
export type NewInvitation = z.input<typeof NewInvitation>;

export interface SentInvitation {
  invitation: PendingInvitation;
  /** The link, shown to copy when no email could be sent. */
  link: string;
  emailed: boolean;
}

/**
 * Invites someone by email: a link with a random token (stored only as its hash) that works for
 * INVITATION_DAYS. Nobody invites above their own role; someone already a member is refused; a
 * second invitation to the same address replaces the first (its link stops working). The email
 * goes out when SMTP is set up; otherwise the caller shows the link.
 */
export async function inviteMember({
  ctx,
  input,
}: {
  ctx: Ctx;
  input: { access: OrgAccess; inviter: { id: number; name: string; email: string }; invitation: NewInvitation };
}): Promise<SentInvitation> {
  const data = validate(NewInvitation, input.invitation);
  const role = data.role as Role;
  const { access, inviter } = input;
  assertMayManage(access.role, role, role);
  if ((await ctx.directory.members(access.org.id)).some((m) => m.email === data.email))
    throw conflict(`${data.email} is already a member of this organization`);
  const teams = await ctx.directory.teams(access.org.id);
  const teamIds = data.teams.map((slug) => {
    const team = teams.find((t) => t.team.slug === slug);
    if (!team) throw invalidInput(`team '${slug}' does not exist`, { teams: `team '${slug}' does not exist` });
    return team.team.id;
  });
  return send(ctx, access, inviter, { email: data.email, role, teamIds });
}

async function send(
  ctx: Ctx,
  access: OrgAccess,
  inviter: { id: number; name: string; email: string },
  who: { email: string; role: Role; teamIds: number[] },
): Promise<SentInvitation> {
  const token = randomBytes(32).toString("base64url");
  const now = ctx.now();
  const invitation = await ctx.directory.putInvitation(
    {
      organizationId: access.org.id,
      email: who.email,
      role: who.role,
      teamIds: who.teamIds,
      invitedBy: inviter.id,
      createdAt: now,
      expiresAt: now + INVITATION_DAYS * 86_400_000,
    },
    hashToken(token),
  );
  const link = inviteLink(ctx, token);
  if (!ctx.mailer) return { invitation, link, emailed: false };
  const by = inviter.name || inviter.email;
  await ctx.mailer.send({
    to: who.email,
    ...renderEmail({
      subject: `Join ${access.org.name} on Telltale`,
      heading: `${by} invited you to ${access.org.name}`,
      paragraphs: [
        `${by} (${inviter.email}) invited you to join the organization ${access.org.name} on Telltale as ${ROLE_INFO[who.role].label.toLowerCase()}.`,
        `The link works for ${INVITATION_DAYS} days and only once.`,
      ],
      action: { label: "Accept the invitation", url: link },
      footer: `If you did not expect this, ignore this email: nothing happens until the link is used.`,
    }),
  });
  return { invitation, link, emailed: true };
}

/** A pending invitation again, with a new link (the old one stops working) and a new expiry. */
export async function resendInvitation({
  ctx,
  input,
}: {
  ctx: Ctx;
  input: { access: OrgAccess; inviter: { id: number; name: string; email: string }; id: number };
}): Promise<SentInvitation> {
  const found = (await ctx.directory.invitations(input.access.org.id)).find((i) => i.id === input.id);
  if (!found) throw notFound("that invitation does not exist");
  assertMayManage(input.access.role, found.role, found.role);
  return send(ctx, input.access, input.inviter, found);
}

/** Revokes a pending invitation; answers the invitation it was (for the audit log). */
export async function revokeInvitation(ctx: Ctx, access: OrgAccess, id: number): Promise<PendingInvitation> {
  const found = (await ctx.directory.invitations(access.org.id)).find((i) => i.id === id);
  if (!found) throw notFound("that invitation does not exist");
  assertMayManage(access.role, found.role);
  await ctx.directory.deleteInvitation(access.org.id, id);
  return found;
}

export interface InvitationView {
  invitation: PendingInvitation;
  org: { slug: string; name: string };
  /** Whether an account with the invitation's address exists (then it signs in to accept). */
  accountExists: boolean;
}

/** What an invitation link leads to; an unknown, used or expired link is "not found". */
export async function invitationByToken(ctx: Ctx, token: string): Promise<InvitationView> {
  if (token.length > 100) throw notFound("this invitation does not exist or was used");
  const invitation = await ctx.directory.invitationByToken(hashToken(token));
  if (!invitation) throw notFound("this invitation does not exist or was used");
  if (invitation.expiresAt <= ctx.now()) throw notFound("this invitation has expired: ask for a new one");
  const org = await ctx.directory.organization(invitation.organizationId);
  if (!org) throw notFound("this invitation does not exist or was used");
  return { invitation, org, accountExists: (await ctx.directory.userByEmail(invitation.email)) !== null };
}

/** Whether `email` is the address an invitation was sent to (addresses compare without case). */
export const isInvitedAddress = (invitation: Pick<PendingInvitation, "email">, email: string) =>
  invitation.email.toLowerCase() === email.trim().toLowerCase();

/**
 * Accepts an invitation as a signed-in user, who must be the invited address's account: the link
 * alone would let anyone it reaches (a forwarded email, a shared screen) join with the invited
 * role as whatever account they hold (decision 0040). An existing member keeps their role. The
 * invitation is used up.
 */
export async function acceptInvitation({
  ctx,
  input,
}: {
  ctx: Ctx;
  input: { token: string; user: { id: number; email: string } };
}): Promise<{ orgSlug: string; invitation: PendingInvitation }> {
  const { invitation, org } = await invitationByToken(ctx, input.token);
  if (!isInvitedAddress(invitation, input.user.email))
    throw forbidden(`this invitation is for ${invitation.email}: sign out, then sign in as that address to accept it`);
  await ctx.directory.addMember(invitation.organizationId, input.user.id, invitation.role, invitation.teamIds, ctx.now());
  await ctx.directory.deleteInvitation(invitation.organizationId, invitation.id);
  return { orgSlug: org.slug, invitation };
}

export const NewAccount = z.object({ name: z.string().trim().max(200).default(""), password: Password });

/**
 * Accepts an invitation by creating the account for its address. An address that already has an
 * account signs in instead (nobody takes over an account with an invitation link).
 */
export async function acceptWithNewAccount({
  ctx,
  input,
}: {
  ctx: Ctx;
  input: { token: string; name: string; password: string };
}): Promise<{ orgSlug: string; email: string; userId: number; invitation: PendingInvitation }> {
  const account = validate(NewAccount, { name: input.name, password: input.password });
  const { invitation } = await invitationByToken(ctx, input.token);
  if (await ctx.directory.userByEmail(invitation.email)) throw conflict(`an account for ${invitation.email} exists: sign in to accept`);
  const user = await createUser({ ctx, input: { email: invitation.email, name: account.name, password: account.password } });
  const { orgSlug } = await acceptInvitation({ ctx, input: { token: input.token, user } });
  return { orgSlug, email: invitation.email, userId: user.id, invitation };
}
