import Link from "next/link";
import { assignableRoles, ROLE_INFO, roleRank, ROLES } from "@/src/core/orgs/roles";
import { roleAllows } from "@/src/core/permissions/table";
import { changeMemberRoleAction, leaveOrganizationAction, removeMemberAction } from "../../../actions/members";
import { ActionForm } from "../../../components/action-form";
import { PageCrumbs } from "../../../components/shell/page-crumbs";
import { When } from "../../../components/when";
import { ctx } from "../../../lib/app-runtime";
import { loadOrg } from "../../../lib/loaders";
import { InvitationsSection } from "./invitations-section";
import "../access.css";

export const metadata = { title: "Members" };

/**
 * The organization's members: role, teams, when they joined; those who manage members
 * change roles (never above their own) and remove members; everyone may leave. Those who may
 * invite find the invite form and the pending invitations below the list.
 */
export default async function MembersPage({ params }: { params: Promise<{ org: string }> }) {
  const { org: slug } = await params;
  const access = await loadOrg("member:read", slug, `/orgs/${slug}/members`);
  const { org, user, role } = access;
  const members = await ctx().directory.members(org.id);
  const manage = roleAllows(role, "member:write");
  const mayChange = (target: (typeof members)[number]) => manage && target.userId !== user.id && roleRank(target.role) <= roleRank(role);
  const choices = assignableRoles(role);
  const me = members.find((m) => m.userId === user.id);
  return (
    <main>
      <PageCrumbs items={[{ label: org.name, href: `/orgs/${org.slug}` }, { label: "Members" }]} />
      <h1>Members</h1>
      <section className="panel">
        <div className="table-scroll">
          <table data-testid="members" className="stack-table">
            <thead>
              <tr>
                <th>Member</th>
                <th>Role</th>
                <th>Teams</th>
                <th>Joined</th>
                <th />
              </tr>
            </thead>
            <tbody>
              {members.map((m) => (
                <tr key={m.userId} data-testid="member-row">
                  <td>
                    {m.name || m.email}
                    {m.userId === user.id && <span className="badge"> you</span>}
                    {m.name && <div className="muted">{m.email}</div>}
                  </td>
                  <td>
                    {mayChange(m) ? (
                      <ActionForm
                        action={changeMemberRoleAction}
                        hidden={{ org: org.slug, userId: m.userId }}
                        submit="Change"
                        label={`Change the role of ${m.email}`}
                        className="inline-form"
                        testId="role-form"
                      >
                        {/* Keyed by the role: a form reset after the action then shows the new one, not the first. */}
                        <select key={m.role} name="role" defaultValue={m.role} aria-label={`Role of ${m.email}`}>
                          {choices.map((r) => (
                            <option key={r} value={r} title={ROLE_INFO[r].summary}>
                              {ROLE_INFO[r].label}
                            </option>
                          ))}
                        </select>
                      </ActionForm>
                    ) : (
                      ROLE_INFO[m.role].label
                    )}
                  </td>
                  <td data-label="Teams">
                    {m.teams.length === 0 ? (
                      <span className="muted">none</span>
                    ) : (
                      m.teams.map((t, i) => (
                        <span key={t}>
                          {i > 0 && ", "}
                          <Link href={`/orgs/${org.slug}/teams/${t}`}>#{t}</Link>
                        </span>
                      ))
                    )}
                  </td>
                  <td data-label="Joined">
                    <When ms={m.joinedAt} />
                  </td>
                  <td>
                    {mayChange(m) && (
                      <ActionForm
                        action={removeMemberAction}
                        hidden={{ org: org.slug, userId: m.userId }}
                        submit="Remove"
                        label={`Remove ${m.email}`}
                        danger
                        testId="remove-member-form"
                      />
                    )}
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
        {manage && (
          <dl className="role-help" data-testid="role-help">
            {ROLES.filter((r) => choices.includes(r)).map((r) => (
              <div key={r}>
                <dt>{ROLE_INFO[r].label}</dt>
                <dd>{ROLE_INFO[r].summary}</dd>
              </div>
            ))}
          </dl>
        )}
      </section>
      <InvitationsSection access={access} />
      {me && (
        <section className="panel">
          <h2 className="panel-title">Leave {org.name}</h2>
          <p className="muted">You lose access to its projects and issues; your team places and issue assignments here end.</p>
          <ActionForm
            action={leaveOrganizationAction}
            hidden={{ org: org.slug }}
            submit="Leave organization"
            danger
            testId="leave-org-form"
          />
        </section>
      )}
    </main>
  );
}
