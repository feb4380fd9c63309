import { PLATFORMS } from "@/src/core/projects/platforms";
import { loadOrg } from "../../../../lib/loaders";
import { NewProjectForm } from "./new-project-form";

export const metadata = { title: "Create project" };

export default async function NewProjectPage({ params }: { params: Promise<{ org: string }> }) {
  const { org: slug } = await params;
  const { org } = await loadOrg("project:write", slug, `/orgs/${slug}/projects/new`);
  return (
    <main className="narrow">
      <h1>Create a project</h1>
      <p className="muted">in {org.name}</p>
      <NewProjectForm org={org.slug} platforms={PLATFORMS.map(({ id, name }) => ({ id, name }))} />
    </main>
  );
}
