import Link from "next/link";
import { notFound } from "next/navigation";
import { buildDsn } from "@/src/core/auth/dsn";
import { DsnHostWarning } from "../../../../../../components/dsn-host-warning";
import { listKeys } from "@/src/core/keys/manage";
import { snippets, type Verified } from "@/src/core/projects/snippets";
import { CopyButton } from "../../../../../../components/copy-button";
import { loadProject } from "../../../../../../lib/loaders";
import { ctx } from "../../../../../../lib/app-runtime";
import { PageCrumbs } from "../../../../../../components/shell/page-crumbs";
import { FirstEvent } from "./first-event";

type Params = Promise<{ org: string; project: string; platform: string[] }>;

export async function generateMetadata({ params }: { params: Params }) {
  return { title: `Set up ${(await params).platform.join(" ")}` };
}

const VERIFIED: Record<Verified, { badge: string; text: string }> = {
  run: { badge: "on", text: "Verified here: the tests run this snippet as written and see its event arrive." },
  no: { badge: "off", text: "Not verified here: this SDK cannot run on the machine Telltale is tested on." },
};

/** `setup/javascript`, `setup/javascript/nextjs`, `setup/node`, …: a catch-all over the guides in snippets.ts. */
export default async function SetupSnippetPage({ params }: { params: Params }) {
  const { org: orgSlug, project: projectSlug, platform } = await params;
  const path = platform.join("/");
  const { org, project } = await loadProject(
    "project:read",
    orgSlug,
    projectSlug,
    `/orgs/${orgSlug}/projects/${projectSlug}/setup/${path}`,
  );
  const key = (await listKeys(ctx(), project)).find((k) => k.is_active === 1);
  if (!key) notFound();
  const dsn = buildDsn(ctx().publicUrl, key.public_key, project.id);
  const all = snippets(dsn);
  const snippet = all.find((s) => s.path === path);
  if (!snippet) notFound();
  const base = `/orgs/${org.slug}/projects/${project.slug}`;
  const verified = VERIFIED[snippet.verified];
  return (
    <main className="setup-guide">
      <PageCrumbs
        items={[{ label: org.name, href: `/orgs/${org.slug}` }, { label: project.name, href: `${base}/settings` }, { label: "Set up" }]}
      />
      <h1>Set up {snippet.title}</h1>
      <FirstEvent org={org.slug} projectId={project.id} />
      <section className="panel">
        <h2 style={{ marginTop: 0 }}>DSN</h2>
        <div className="copy-row">
          <code className="dsn" data-testid="dsn">
            {dsn}
          </code>
          <CopyButton text={dsn} label="Copy DSN" testId="copy-dsn" />
        </div>
        <DsnHostWarning />
      </section>
      <nav className="tabs guide-tabs" aria-label="Platforms">
        {all.map((s) => (
          <Link key={s.path} href={`${base}/setup/${s.path}`} aria-current={s.path === path ? "page" : undefined}>
            {s.title}
          </Link>
        ))}
      </nav>
      <div className="panel">
        <p data-testid="verified">
          <span className={`badge ${verified.badge}`}>
            {snippet.verified === "no"
              ? "not verified here"
              : snippet.verifiedWith
                ? `verified here with ${snippet.verifiedWith}`
                : "verified here"}
          </span>{" "}
          <span className="muted-small">
            {verified.text}
            {snippet.verifiedWith
              ? ` Run here with ${snippet.verifiedWith}, the newest release this machine can install; the snippet uses only API it shares with the current SDK.`
              : ""}
            {snippet.note ? ` ${snippet.note}` : ""}
          </span>
        </p>
        <div className="snippet-head">
          <h2>Install</h2>
          <CopyButton text={snippet.install} />
        </div>
        <pre>{snippet.install}</pre>
        {snippet.files.map((f) => (
          <div key={f.name}>
            <div className="snippet-head">
              <h2>{f.name}</h2>
              <CopyButton text={f.code} />
            </div>
            <pre data-testid="snippet">{f.code}</pre>
          </div>
        ))}
        <p className="muted-small docs-link">
          More options: <a href={snippet.docs}>{snippet.docs}</a>
        </p>
      </div>
    </main>
  );
}
