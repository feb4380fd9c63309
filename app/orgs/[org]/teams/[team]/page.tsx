import Link from "next/link";
import { notFound } from "next/navigation";
import { TEAM_ROLE_INFO, TEAM_ROLES } from "@/src/core/orgs/roles";
import { roleAllows } from "@/src/core/permissions/table";
import { listProjects } from "@/src/core/projects/queries";
import {
  addTeamMemberAction,
  addTeamProjectAction,
  deleteTeamAction,
  removeTeamMemberAction,
  removeTeamProjectAction,
  renameTeamAction,
  setTeamRoleAction,
} from "../../../../actions/teams";
import { AddChoiceForm } from "../../../../components/add-choice-form";
import { ActionForm } from "../../../../components/action-form";
import { PageCrumbs } from "../../../../components/shell/page-crumbs";
import { ctx } from "../../../../lib/app-runtime";
import { loadOrg } from "../../../../lib/loaders";
import "../../access.css";

type Params = Promise<{ org: string; team: string }>;

export async function generateMetadata({ params }: { params: Params }) {
  return { title: `#${(await params).team}` };
}

function TeamRoleSelect({ name = "role", value, label }: { name?: string; value: string; label: string }) {
  return (
    // Keyed by the role: a form reset after the action then shows the new one, not the first.
    <select key={value} name={name} defaultValue={value} aria-label={label}>
      {TEAM_ROLES.map((r) => (
        <option key={r} value={r} title={TEAM_ROLE_INFO[r].summary}>
          {TEAM_ROLE_INFO[r].label}
        </option>
      ))}
    </select>
  );
}

/**
 * One team: its members with their team roles and its projects. Organization admins
 * and the team's own admins manage both; anyone may join (with open membership) or leave.
 */
export default async function TeamPage({ params }: { params: Params }) {
  const { org: slug, team: teamSlug } = await params;
  const { org, user, role, projectIds } = await loadOrg("team:read", slug, `/orgs/${slug}/teams/${teamSlug}`);
  const [teams, members, projects] = await Promise.all([
    ctx().directory.teams(org.id),
    ctx().directory.members(org.id),
    listProjects(ctx(), { org, projectIds }),
  ]);
  const detail = teams.find((t) => t.team.slug === teamSlug);
  if (!detail) notFound();
  const { team } = detail;
  const mine = detail.members.find((m) => m.userId === user.id);
  // The same rule the actions apply (src/core/teams/teams.ts assertMayManageTeam).
  const manage = roleAllows(role, "team:write") || mine?.role === "admin";
  const mayJoin = org.open_membership === 1 || roleAllows(role, "team:write");
  const manageProjects = roleAllows(role, "project:write");
  const outside = members.filter((m) => !detail.members.some((t) => t.userId === m.userId));
  const otherProjects = projects.filter((p) => !detail.projects.some((t) => t.id === p.id));
  const base = { org: org.slug, team: team.slug };
  return (
    <main>
      <PageCrumbs
        items={[
          { label: org.name, href: `/orgs/${org.slug}` },
          { label: "Teams", href: `/orgs/${org.slug}/teams` },
          { label: `#${team.slug}` },
        ]}
      />
      <h1>
        #{team.slug} {team.name !== team.slug && <span className="muted">{team.name}</span>}
      </h1>
      {team.isDefault && <p className="muted">The default team: projects created without naming a team join it.</p>}
      <div className="row" style={{ marginBottom: "1rem" }}>
        {mine ? (
          <ActionForm action={removeTeamMemberAction} hidden={base} submit="Leave team" label={`Leave #${team.slug}`} />
        ) : mayJoin ? (
          <ActionForm action={addTeamMemberAction} hidden={base} submit="Join team" label={`Join #${team.slug}`} />
        ) : null}
      </div>

      <section className="panel">
        <h2 className="panel-title">Members</h2>
        {detail.members.length === 0 ? (
          <p className="muted">Nobody is on this team yet.</p>
        ) : (
          <div className="table-scroll">
            <table data-testid="team-members" className="stack-table">
              <thead>
                <tr>
                  <th>Member</th>
                  <th>Team role</th>
                  {manage && <th />}
                </tr>
              </thead>
              <tbody>
                {detail.members.map((m) => (
                  <tr key={m.userId} data-testid="team-member-row">
                    <td>
                      {m.name || m.email}
                      {m.name && <div className="muted">{m.email}</div>}
                    </td>
                    <td>
                      {manage ? (
                        <ActionForm
                          action={setTeamRoleAction}
                          hidden={{ ...base, userId: m.userId }}
                          submit="Change"
                          label={`Change the team role of ${m.email}`}
                          className="inline-form"
                        >
                          <TeamRoleSelect value={m.role} label={`Team role of ${m.email}`} />
                        </ActionForm>
                      ) : (
                        TEAM_ROLE_INFO[m.role].label
                      )}
                    </td>
                    {manage && (
                      <td>
                        <ActionForm
                          action={removeTeamMemberAction}
                          hidden={{ ...base, userId: m.userId }}
                          submit="Remove"
                          label={`Remove ${m.email} from the team`}
                          danger
                        />
                      </td>
                    )}
                  </tr>
                ))}
              </tbody>
            </table>
          </div>
        )}
        {manage && outside.length > 0 && (
          <AddChoiceForm
            action={addTeamMemberAction}
            hidden={base}
            submit="Add to team"
            testId="add-team-member-form"
            name="userId"
            label="Member to add"
            placeholder="Choose a member…"
            choices={outside.map((m) => ({ value: m.userId, label: m.name ? `${m.name} (${m.email})` : m.email }))}
          >
            <TeamRoleSelect value="contributor" label="Team role of the new member" />
          </AddChoiceForm>
        )}
        {manage && (
          <dl className="role-help">
            {TEAM_ROLES.map((r) => (
              <div key={r}>
                <dt>{TEAM_ROLE_INFO[r].label}</dt>
                <dd>{TEAM_ROLE_INFO[r].summary}</dd>
              </div>
            ))}
          </dl>
        )}
      </section>

      <section className="panel">
        <h2 className="panel-title">Projects</h2>
        {detail.projects.length === 0 ? (
          <p className="muted">This team has no projects.</p>
        ) : (
          <ul className="team-list" data-testid="team-projects">
            {detail.projects.map((p) => (
              <li key={p.id}>
                <div>
                  <Link href={`/orgs/${org.slug}/issues?project=${p.slug}`}>{p.name}</Link>
                  {p.name !== p.slug && <span className="muted"> {p.slug}</span>}
                </div>
                {manageProjects && (
                  <ActionForm
                    action={removeTeamProjectAction}
                    hidden={{ ...base, project: p.slug }}
                    submit="Remove"
                    label={`Remove ${p.slug} from the team`}
                    danger
                  />
                )}
              </li>
            ))}
          </ul>
        )}
        {manageProjects && otherProjects.length > 0 && (
          <AddChoiceForm
            action={addTeamProjectAction}
            hidden={base}
            submit="Add project"
            testId="add-team-project-form"
            name="project"
            label="Project to add"
            placeholder="Choose a project…"
            choices={otherProjects.map((p) => ({ value: p.slug, label: p.name }))}
          />
        )}
      </section>

      {roleAllows(role, "team:write") && (
        <section className="panel">
          <h2 className="panel-title">Rename</h2>
          <ActionForm
            action={renameTeamAction}
            hidden={base}
            submit="Save"
            className="stack-form"
            testId="rename-team-form"
            fields={[
              { name: "name", label: "Name", defaultValue: team.name, required: true },
              { name: "slug", label: "Slug", defaultValue: team.slug, required: true, maxLength: 50 },
            ]}
          />
        </section>
      )}
      {roleAllows(role, "team:delete") && !team.isDefault && (
        <section className="panel danger-zone">
          <h2 className="panel-title">Delete team</h2>
          <p className="muted">Its members stay in the organization; projects that only this team had join the default team.</p>
          <ActionForm
            action={deleteTeamAction}
            hidden={base}
            submit="Delete team"
            label={`Delete #${team.slug}`}
            danger
            testId="delete-team-form"
          />
        </section>
      )}
    </main>
  );
}
