import { PLATFORMS } from "@/src/core/projects/platforms";
import { PageCrumbs } from "../../../../components/shell/page-crumbs";
import { loadOrg } from "../../../../lib/loaders";
import { NewProjectForm } from "./new-project-form";

export const metadata = { title: "Create project" };

export default async function NewProjectPage({ params }: { params: Promise<{ org: string }> }) {
  const { org: slug } = await params;
  const { org } = await loadOrg("project:write", slug, `/orgs/${slug}/projects/new`);
  return (
    <main className="narrow">
      <PageCrumbs items={[{ label: org.name, href: `/orgs/${org.slug}` }, { label: "Create project" }]} />
      <h1>Create a project</h1>
      <NewProjectForm org={org.slug} platforms={PLATFORMS.map(({ id, name }) => ({ id, name }))} />
    </main>
  );
}
