import { emailSetup } from "@/src/core/preferences/email-setup";
import { projectChoices } from "@/src/core/preferences/save";
import type { User } from "@/src/core/accounts/user";
import { LocalhostLinksWarning } from "../components/email-warnings";
import { ctx } from "../lib/app-runtime";
import { NotificationChoicesForm, ProjectAlertsForm, ProjectAlertsResetForm, TestEmailForm } from "./notification-forms";

/** Projects offered in the per-project form, at most (a select of thousands helps nobody). */
const PROJECTS_OFFERED = 500;

/** The account page's Notifications: where email goes, a test email, and which emails one gets . */
export async function NotificationsSection({ user }: { user: User }) {
  const [preferences, projects] = await Promise.all([ctx().userNotifications.preferences(user.id), projectChoices(ctx(), user)]);
  const setup = emailSetup(ctx());
  const label = (p: { orgSlug: string; name: string }) => `${p.orgSlug} / ${p.name}`;
  const byId = new Map(projects.map((p) => [p.id, p]));
  const overrides = preferences.projects.flatMap((o) => {
    const p = byId.get(o.projectId);
    return p ? [{ ...o, label: label(p) }] : [];
  });
  return (
    <>
      <h2 id="notifications">Notifications</h2>
      <div className="panel">
        {setup.smtp ? (
          <p className="form-intro" data-testid="email-destination">
            Telltale emails you at <strong>{user.email}</strong>.
          </p>
        ) : (
          <p className="warning" role="note" data-testid="no-smtp">
            No SMTP server is configured (<code>TELLTALE_SMTP_URL</code>), so no email is sent. Your notifications would go to{" "}
            <strong>{user.email}</strong>; they are recorded as not sent on each project&apos;s Alerts page.
          </p>
        )}
        <LocalhostLinksWarning />
        <TestEmailForm />
      </div>
      <div className="panel">
        <p className="muted form-intro">Which emails you get. Nobody is emailed about what they did themselves.</p>
        <NotificationChoicesForm choices={preferences.choices} />
      </div>
      <div className="panel">
        <h3 style={{ marginTop: 0 }}>Issue alerts per project</h3>
        <p className="muted form-intro">A project set here follows this choice instead of the one above.</p>
        {overrides.length > 0 && (
          <table data-testid="project-alerts" className="account-table">
            <thead>
              <tr>
                <th>Project</th>
                <th>Issue alerts</th>
                <th aria-label="Actions" />
              </tr>
            </thead>
            <tbody>
              {overrides.map((o) => (
                <tr key={o.projectId}>
                  <td>{o.label}</td>
                  <td>
                    <span className={`badge ${o.issueAlerts ? "on" : "off"}`}>{o.issueAlerts ? "on" : "off"}</span>
                  </td>
                  <td>
                    <ProjectAlertsResetForm projectId={o.projectId} label={o.label} />
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        )}
        {projects.length === 0 ? (
          <p className="muted">You are in no project yet.</p>
        ) : (
          <ProjectAlertsForm projects={projects.slice(0, PROJECTS_OFFERED).map((p) => ({ id: p.id, label: label(p) }))} />
        )}
      </div>
    </>
  );
}
