import { notFound } from "next/navigation";
import { canManageProjects } from "@/src/core/orgs/access";
import { PLATFORMS } from "@/src/core/projects/platforms";
import { loadOrg } from "../../../../lib/loaders";
import { NewProjectForm } from "./new-project-form";

export const metadata = { title: "Create project" };

export default async function NewProjectPage({ params }: { params: Promise<{ org: string }> }) {
  const { org: slug } = await params;
  const { org, role } = await loadOrg(slug, `/orgs/${slug}/projects/new`);
  if (!canManageProjects(role)) notFound();
  return (
    <main className="narrow">
      <h1>Create a project</h1>
      <p className="muted">in {org.name}</p>
      <NewProjectForm org={org.slug} platforms={PLATFORMS.map(({ id, name }) => ({ id, name }))} />
    </main>
  );
}
