"use server";

import { headers } from "next/headers";
import { revalidatePath } from "next/cache";
import { redirect } from "next/navigation";
import { login } from "@/src/core/accounts/login";
import { isTelltaleError } from "@/src/core/errors";
import { acceptInvitation, acceptWithNewAccount, inviteMember, resendInvitation, revokeInvitation } from "@/src/core/orgs/invitations";
import { auditor } from "@/src/core/audit/record";
import { auditEvents } from "@/src/core/permissions/table";
import type { PendingInvitation } from "@/src/core/ports/directory";
import { clientIp, currentUser, setSessionCookie } from "../lib/auth";
import { ctx } from "../lib/app-runtime";
import { action, publicAction } from "../lib/action";
import { field, type FormState } from "../lib/forms";

const refresh = (org: string) => revalidatePath(`/orgs/${org}/members`);
const invitationTarget = (i: PendingInvitation) => ({ type: "invitation", id: i.id, label: i.email });

/** What the form says after sending: the email went out, or here is the link to pass on. */
function sentState(email: string, sent: { emailed: boolean; link: string }): FormState {
  return sent.emailed
    ? { notice: `Invitation sent to ${email}.` }
    : { notice: `Email is not set up on this server: send ${email} this link yourself.`, values: { link: sent.link } };
}

export const inviteAction = action(
  "member:invite",
  async ({ ctx, user, access, form, audit }) => {
    const sent = await inviteMember({
      ctx,
      input: {
        access,
        inviter: user,
        invitation: { email: field(form, "email"), role: field(form, "role"), teams: form.getAll("team").map(String) },
      },
    });
    await audit({ event: "member.invite", target: invitationTarget(sent.invitation), after: { role: sent.invitation.role } });
    refresh(access.org.slug);
    return sentState(sent.invitation.email, sent);
  },
  { keep: ["email", "role"] },
);

export const resendInvitationAction = action("member:invite", async ({ ctx, user, access, form, audit }) => {
  const sent = await resendInvitation({ ctx, input: { access, inviter: user, id: Number(field(form, "invitation")) } });
  await audit({ event: "member.reinvite", target: invitationTarget(sent.invitation) });
  refresh(access.org.slug);
  return sentState(sent.invitation.email, sent);
});

export const revokeInvitationAction = action("member:invite", async ({ ctx, access, form, audit }) => {
  const revoked = await revokeInvitation(ctx, access, Number(field(form, "invitation")));
  await audit({ event: "member.revoke-invite", target: invitationTarget(revoked), before: { role: revoked.role } });
  refresh(access.org.slug);
  return { notice: "Invitation revoked." };
});

/**
 * Accepting by the link: the invited address's signed-in account joins; someone without an account
 * creates the invited address's account and is signed in. Public, like signing in: the link and
 * the address are the proof (decision 0040).
 */
async function accept(_prev: FormState, form: FormData): Promise<FormState> {
  const token = field(form, "token");
  let orgSlug: string;
  try {
    const user = await currentUser();
    const ip = await clientIp();
    // Joining is recorded in the organization joined, as the one who joined.
    const joined = (who: { id: number; email: string }, invitation: PendingInvitation) =>
      auditor(
        ctx(),
        invitation.organizationId,
        { user: who, tokenId: null, ip },
        auditEvents("invite:accept"),
      )({
        event: "member.accept-invite",
        target: { type: "member", id: who.id, label: who.email },
        after: { role: invitation.role },
      });
    if (user) {
      const accepted = await acceptInvitation({ ctx: ctx(), input: { token, user } });
      orgSlug = accepted.orgSlug;
      await joined(user, accepted.invitation);
    } else {
      const password = field(form, "password");
      const created = await acceptWithNewAccount({ ctx: ctx(), input: { token, name: field(form, "name"), password } });
      orgSlug = created.orgSlug;
      await joined({ id: created.userId, email: created.email }, created.invitation);
      const session = await login({
        ctx: ctx(),
        input: { email: created.email, password, ip, userAgent: (await headers()).get("user-agent") ?? "" },
      });
      await setSessionCookie(session.token, session.expiresAt);
    }
  } catch (error) {
    if (isTelltaleError(error)) return { error: error.message, values: { name: field(form, "name") } };
    throw error;
  }
  redirect(`/orgs/${orgSlug}`);
}

export const acceptInvitationAction = publicAction("invite:accept", accept);
