import Link from "next/link";
import { roleAllows } from "@/src/core/permissions/table";
import { addTeamMemberAction, createTeamAction, removeTeamMemberAction } from "../../../actions/teams";
import { ActionForm } from "../../../components/action-form";
import { PageCrumbs } from "../../../components/shell/page-crumbs";
import { ctx } from "../../../lib/app-runtime";
import { loadOrg } from "../../../lib/loaders";
import "../access.css";

export const metadata = { title: "Teams" };

const plural = (n: number, one: string, many: string) => `${n} ${n === 1 ? one : many}`;

/** The organization's teams: who is on each, its projects; join, leave, create. */
export default async function TeamsPage({ params }: { params: Promise<{ org: string }> }) {
  const { org: slug } = await params;
  const { org, user, role } = await loadOrg("team:read", slug, `/orgs/${slug}/teams`);
  const teams = await ctx().directory.teams(org.id);
  // Joining oneself needs open membership or a role that manages teams (src/core/teams/teams.ts).
  const mayJoin = org.open_membership === 1 || roleAllows(role, "team:write");
  return (
    <main>
      <PageCrumbs items={[{ label: org.name, href: `/orgs/${org.slug}` }, { label: "Teams" }]} />
      <h1>Teams</h1>
      <p className="muted">
        Projects belong to teams.{" "}
        {org.open_membership === 1
          ? "With open membership every member sees every project; teams group people and projects."
          : "Open membership is off: members and admins see only the projects of their teams."}
      </p>
      <section className="panel">
        <ul className="team-list" data-testid="teams">
          {teams.map(({ team, members, projects }) => {
            const mine = members.some((m) => m.userId === user.id);
            return (
              <li key={team.id} data-testid="team-row">
                <div>
                  <Link href={`/orgs/${org.slug}/teams/${team.slug}`} className="team-name">
                    #{team.slug}
                  </Link>
                  {team.name !== team.slug && <span className="muted"> {team.name}</span>}
                  {team.isDefault && <span className="badge">default</span>}
                  <div className="muted-small">
                    {plural(members.length, "member", "members")} · {plural(projects.length, "project", "projects")}
                  </div>
                </div>
                {mine ? (
                  <ActionForm
                    action={removeTeamMemberAction}
                    hidden={{ org: org.slug, team: team.slug }}
                    submit="Leave"
                    label={`Leave #${team.slug}`}
                  />
                ) : mayJoin ? (
                  <ActionForm
                    action={addTeamMemberAction}
                    hidden={{ org: org.slug, team: team.slug }}
                    submit="Join"
                    label={`Join #${team.slug}`}
                  />
                ) : null}
              </li>
            );
          })}
        </ul>
      </section>
      {roleAllows(role, "team:write") && (
        <section className="panel">
          <h2 className="panel-title">New team</h2>
          <ActionForm
            action={createTeamAction}
            hidden={{ org: org.slug }}
            submit="Create team"
            className="stack-form"
            testId="new-team-form"
            fields={[
              {
                name: "slug",
                label: "Slug",
                required: true,
                placeholder: "e.g. backend",
                maxLength: 50,
                hint: "lowercase letters, digits, - and _",
              },
              { name: "name", label: "Name", placeholder: "e.g. Backend" },
            ]}
          />
        </section>
      )}
    </main>
  );
}
