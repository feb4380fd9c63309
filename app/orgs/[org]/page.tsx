import Link from "next/link";
import { canManageProjects } from "@/src/core/orgs/access";
import { listProjects } from "@/src/core/projects/queries";
import { PLATFORMS } from "@/src/core/projects/platforms";
import { loadOrg } from "../../lib/loaders";
import { ctx } from "../../lib/runtime";

export async function generateMetadata({ params }: { params: Promise<{ org: string }> }) {
  return { title: (await params).org };
}

export default async function OrganizationPage({ params }: { params: Promise<{ org: string }> }) {
  const { org: slug } = await params;
  const { org, role } = await loadOrg(slug, `/orgs/${slug}`);
  const projects = await listProjects(ctx(), org);
  const platformName = (id: string) => PLATFORMS.find((p) => p.id === id)?.name ?? id;
  return (
    <main>
      <div className="row" style={{ justifyContent: "space-between" }}>
        <h1>{org.name} · Projects</h1>
        <Link href={`/orgs/${org.slug}/issues`}>Issues</Link>
        {canManageProjects(role) && (
          <Link href={`/orgs/${org.slug}/projects/new`}>
            <button className="primary" type="button">
              Create project
            </button>
          </Link>
        )}
      </div>
      <div className="panel">
        {projects.length === 0 ? (
          <p className="muted">No projects yet. Create one to get a DSN for your SDK.</p>
        ) : (
          <table>
            <thead>
              <tr>
                <th>Project</th>
                <th>Platform</th>
                <th>Created</th>
              </tr>
            </thead>
            <tbody>
              {projects.map((p) => (
                <tr key={p.id}>
                  <td>
                    <Link href={`/orgs/${org.slug}/projects/${p.slug}/settings`}>{p.name}</Link>{" "}
                    <span className="muted">{p.slug}</span>
                  </td>
                  <td>{platformName(p.platform)}</td>
                  <td className="muted">{new Date(p.created_at).toISOString().slice(0, 10)}</td>
                </tr>
              ))}
            </tbody>
          </table>
        )}
      </div>
    </main>
  );
}
