import Link from "next/link";
import { roleAllows } from "@/src/core/permissions/table";
import { listProjects } from "@/src/core/projects/queries";
import { PLATFORMS } from "@/src/core/projects/platforms";
import { loadOrg } from "../../lib/loaders";
import { ctx } from "../../lib/app-runtime";
import { When } from "../../components/when";
import { PageCrumbs } from "../../components/shell/page-crumbs";

export async function generateMetadata({ params }: { params: Promise<{ org: string }> }) {
  return { title: (await params).org };
}

export default async function OrganizationPage({ params }: { params: Promise<{ org: string }> }) {
  const { org: slug } = await params;
  const access = await loadOrg("org:read", slug, `/orgs/${slug}`);
  const { org, role } = access;
  const projects = await listProjects(ctx(), access);
  const platformName = (id: string) => PLATFORMS.find((p) => p.id === id)?.name ?? id;
  return (
    <main>
      <PageCrumbs items={[{ label: "Organizations", href: "/orgs" }, { label: org.name }]} />
      <div className="row" style={{ justifyContent: "space-between" }}>
        <h1>{org.name} · Projects</h1>
        {roleAllows(role, "project:write") && (
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
                    <Link href={`/orgs/${org.slug}/projects/${p.slug}/settings`}>{p.name}</Link> <span className="muted">{p.slug}</span>
                  </td>
                  <td>{platformName(p.platform)}</td>
                  <td className="muted">
                    <When ms={p.created_at} />
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        )}
      </div>
    </main>
  );
}
