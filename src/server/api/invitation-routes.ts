import { invalidInput } from "../../core/errors";
import { inviteMember } from "../../core/orgs/invitations";
import { ROLE_INFO } from "../../core/orgs/roles";
import { Created } from "./raw";
import { route, type ApiRoute } from "./route";

/** Sentry's team choices in an invite: `teams: ["slug"]`, or `teamRoles: [{teamSlug, role}]`. */
function teamSlugs(body: Record<string, unknown>): string[] {
  const { teams, teamRoles } = body;
  if (Array.isArray(teamRoles))
    return teamRoles.map((t: unknown) => (t !== null && typeof t === "object" && "teamSlug" in t ? String(t.teamSlug) : ""));
  if (Array.isArray(teams)) return teams.map(String);
  return [];
}

/**
 * `POST /api/0/organizations/{org}/members/`: invites by email, as Sentry's endpoint
 * (https://docs.sentry.io/api/organizations/add-a-member-to-an-organization/). The answer is
 * the pending member; the link goes by email, or comes back as `inviteLink` when SMTP is off.
 */
export const INVITATION_ROUTES: ApiRoute[] = [
  route("POST", "/organizations/{}/members", "member:invite", async ({ ctx, user, access, body, audit }) => {
    if (body === null || typeof body !== "object" || Array.isArray(body)) throw invalidInput('send {"email": …, "orgRole": …}');
    const fields = body as Record<string, unknown>;
    const role = fields.orgRole ?? fields.role ?? "member";
    const sent = await inviteMember({
      ctx,
      input: {
        access,
        inviter: user,
        invitation: { email: typeof fields.email === "string" ? fields.email : "", role: String(role), teams: teamSlugs(fields) },
      },
    });
    const { invitation } = sent;
    const target = { type: "invitation", id: invitation.id, label: invitation.email };
    await audit({ event: "member.invite", target, after: { role: invitation.role } });
    const teams = (await ctx.directory.teams(access.org.id)).filter((t) => invitation.teamIds.includes(t.team.id)).map((t) => t.team.slug);
    return new Created({
      id: String(invitation.id),
      email: invitation.email,
      name: invitation.email,
      user: null,
      orgRole: invitation.role,
      role: invitation.role,
      roleName: ROLE_INFO[invitation.role].label,
      pending: true,
      expired: false,
      inviteStatus: "approved",
      inviterName: user.name || user.email,
      dateCreated: new Date(invitation.createdAt).toISOString(),
      teams,
      teamRoles: teams.map((teamSlug) => ({ teamSlug, role: null })),
      ...(sent.emailed ? {} : { inviteLink: sent.link }),
    });
  }),
];
