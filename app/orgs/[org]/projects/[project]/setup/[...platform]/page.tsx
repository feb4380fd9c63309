import Link from "next/link";
import { notFound } from "next/navigation";
import { buildDsn } from "@/src/core/auth/dsn";
import { listKeys } from "@/src/core/keys/manage";
import { snippets } from "@/src/core/projects/snippets";
import { loadProject } from "../../../../../../lib/loaders";
import { ctx } from "../../../../../../lib/runtime";

type Params = Promise<{ org: string; project: string; platform: string[] }>;

export async function generateMetadata({ params }: { params: Params }) {
  return { title: `Set up ${(await params).platform.join(" ")}` };
}

/** `setup/javascript`, `setup/javascript/nextjs`, `setup/node`, `setup/python`: a catch-all over SDK paths. */
export default async function SetupSnippetPage({ params }: { params: Params }) {
  const { org: orgSlug, project: projectSlug, platform } = await params;
  const path = platform.join("/");
  const { org, project } = await loadProject(orgSlug, projectSlug, `/orgs/${orgSlug}/projects/${projectSlug}/setup/${path}`);
  const key = (await listKeys(ctx(), project)).find((k) => k.is_active === 1);
  if (!key) notFound();
  const all = snippets(buildDsn(ctx().publicUrl, key.public_key, project.id));
  const snippet = all.find((s) => s.path === path);
  if (!snippet) notFound();
  const base = `/orgs/${org.slug}/projects/${project.slug}`;
  return (
    <main>
      <p className="breadcrumbs">
        <Link href={`/orgs/${org.slug}`}>{org.name}</Link> / <Link href={`${base}/settings`}>{project.name}</Link> / set up
      </p>
      <h1>Set up {snippet.title}</h1>
      <nav className="tabs">
        {all.map((s) => (
          <Link key={s.path} href={`${base}/setup/${s.path}`} aria-current={s.path === path ? "page" : undefined}>
            {s.title}
          </Link>
        ))}
      </nav>
      <div className="panel">
        <h2 style={{ marginTop: 0 }}>Install</h2>
        <pre>{snippet.install}</pre>
        {snippet.files.map((f) => (
          <div key={f.name}>
            <h2>{f.name}</h2>
            <pre data-testid="snippet">{f.code}</pre>
          </div>
        ))}
      </div>
    </main>
  );
}
