import Link from "next/link";
import { addTeamProjectAction, deleteProjectAction, removeTeamProjectAction } from "../../../../../../actions/teams";
import { AddChoiceForm } from "../../../../../../components/add-choice-form";
import { ActionForm } from "../../../../../../components/action-form";
import { ctx } from "../../../../../../lib/app-runtime";
import "../../../../access.css";

/** The project's teams: who works on it; admins give it to more teams or take it from one. */
export async function ProjectTeamsPanel({
  orgId,
  org,
  projectId,
  project,
  manage,
}: {
  orgId: number;
  org: string;
  projectId: number;
  project: string;
  manage: boolean;
}) {
  const [mine, all] = await Promise.all([ctx().directory.teamsOfProject(projectId), ctx().directory.teams(orgId)]);
  const others = all.filter((t) => !mine.some((m) => m.id === t.team.id));
  return (
    <section className="panel">
      <h2 style={{ marginTop: 0 }}>Teams</h2>
      <p className="muted">
        A project belongs to one team or more. With open membership off, only their members (and owners and managers) see it.
      </p>
      <ul className="team-list" data-testid="project-teams">
        {mine.map((t) => (
          <li key={t.id}>
            <Link href={`/orgs/${org}/teams/${t.slug}`} className="team-name">
              #{t.slug}
            </Link>
            {manage && (
              <ActionForm
                action={removeTeamProjectAction}
                hidden={{ org, team: t.slug, project }}
                submit="Remove"
                label={`Remove #${t.slug} from ${project}`}
                danger
              />
            )}
          </li>
        ))}
      </ul>
      {manage && others.length > 0 && (
        <AddChoiceForm
          action={addTeamProjectAction}
          hidden={{ org, project }}
          submit="Add team"
          testId="add-project-team-form"
          name="team"
          label="Team to add"
          placeholder="Choose a team…"
          choices={others.map((t) => ({ value: t.team.slug, label: `#${t.team.slug}` }))}
        />
      )}
    </section>
  );
}

/** Deleting a project, behind typing its slug (as Sentry asks). */
export function DeleteProjectPanel({ org, project }: { org: string; project: string }) {
  return (
    <section className="panel danger-zone" data-testid="delete-project">
      <h2 style={{ marginTop: 0 }}>Delete project</h2>
      <p className="muted">
        Deletes the project with all its events, issues, traces, attachments and keys, and the events still waiting to be processed. This
        cannot be undone.
      </p>
      <ActionForm
        action={deleteProjectAction}
        hidden={{ org, project }}
        submit="Delete project"
        label={`Delete ${project}`}
        danger
        className="stack-form"
        testId="delete-project-form"
        fields={[{ name: "confirm", label: `Type ${project} to confirm`, required: true, maxLength: 50 }]}
      />
    </section>
  );
}
