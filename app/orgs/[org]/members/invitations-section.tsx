import { INVITATION_DAYS } from "@/src/core/orgs/invitations";
import { ROLE_INFO, assignableRoles, type Role } from "@/src/core/orgs/roles";
import type { OrgAccess } from "@/src/core/orgs/access";
import { roleAllows } from "@/src/core/permissions/table";
import { When } from "../../../components/when";
import { ctx } from "../../../lib/app-runtime";
import { exactUtc } from "../../../lib/dates";
import { InvitationButtons, InviteForm } from "./invite-forms";

const DAY = new Intl.DateTimeFormat("en", { day: "numeric", month: "short", year: "numeric", timeZone: "UTC" });

/**
 * The members page's invitations: the invite form and the pending invitations, for those who may
 * invite (member:invite); nothing for others.
 */
export async function InvitationsSection({ access }: { access: OrgAccess }) {
  if (!roleAllows(access.role, "member:invite")) return null;
  const c = ctx();
  const [pending, teams, members] = await Promise.all([
    c.directory.invitations(access.org.id),
    c.directory.teams(access.org.id),
    c.directory.members(access.org.id),
  ]);
  const inviters = new Map(members.map((m) => [m.userId, m.name || m.email]));
  const now = c.now();
  const roles = assignableRoles(access.role).map((r: Role) => ({ value: r, ...ROLE_INFO[r] }));
  return (
    <>
      <section className="panel" data-testid="invite">
        <h2 className="panel-title">Invite people</h2>
        <p className="muted">
          {c.mailer
            ? `They get an email with a link that works for ${INVITATION_DAYS} days.`
            : "Email is not set up on this server (TELLTALE_SMTP_URL): you get the link to send yourself."}
        </p>
        <InviteForm org={access.org.slug} roles={roles} teams={teams.map((t) => ({ slug: t.team.slug, name: t.team.name }))} />
      </section>
      <section className="panel" data-testid="pending-invitations">
        <h2 className="panel-title">Pending invitations</h2>
        {pending.length === 0 ? (
          <p className="muted">None.</p>
        ) : (
          <div className="table-scroll">
            <table>
              <thead>
                <tr>
                  <th>Email</th>
                  <th>Role</th>
                  <th>Invited</th>
                  <th>Expires</th>
                  <th />
                </tr>
              </thead>
              <tbody>
                {pending.map((i) => (
                  <tr key={i.id} data-testid="invitation-row">
                    <td>{i.email}</td>
                    <td>{ROLE_INFO[i.role].label}</td>
                    <td>
                      <When ms={i.createdAt} />
                      {i.invitedBy !== null && inviters.has(i.invitedBy) && <span className="muted"> by {inviters.get(i.invitedBy)}</span>}
                    </td>
                    <td>
                      {i.expiresAt <= now ? (
                        <span className="badge off">expired</span>
                      ) : (
                        <time title={exactUtc(i.expiresAt)}>{DAY.format(i.expiresAt)}</time>
                      )}
                    </td>
                    <td>
                      <InvitationButtons org={access.org.slug} id={i.id} email={i.email} />
                    </td>
                  </tr>
                ))}
              </tbody>
            </table>
          </div>
        )}
      </section>
    </>
  );
}
