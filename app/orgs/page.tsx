import Link from "next/link";
import { listOrganizations } from "@/src/core/orgs/access";
import { PersonalShell } from "../components/shell/personal-shell";
import { loadUser } from "../lib/loaders";
import { ctx } from "../lib/app-runtime";

export const metadata = { title: "Organizations" };

export default async function OrganizationsPage() {
  const user = await loadUser("account:read", "/orgs");
  const orgs = await listOrganizations(ctx(), user);
  // This page's URL lies above the organization layout's, so it names the shell itself.
  return (
    <PersonalShell>
      <main>
        <h1>Organizations</h1>
        <div className="panel">
          {orgs.length === 0 ? (
            <p className="muted">You are not a member of any organization yet. Ask an owner to add you.</p>
          ) : (
            <table>
              <thead>
                <tr>
                  <th>Organization</th>
                  <th>Your role</th>
                </tr>
              </thead>
              <tbody>
                {orgs.map(({ org, role }) => (
                  <tr key={org.id}>
                    <td>
                      <Link href={`/orgs/${org.slug}`}>{org.name}</Link> <span className="muted">{org.slug}</span>
                      {org.is_internal === 1 && <span className="badge"> self-monitoring</span>}
                    </td>
                    <td>{role}</td>
                  </tr>
                ))}
              </tbody>
            </table>
          )}
        </div>
      </main>
    </PersonalShell>
  );
}
