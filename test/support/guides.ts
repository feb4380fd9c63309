import { mkdirSync, mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { parseSettings } from "../../src/config/settings";
import { buildDsn } from "../../src/core/auth/dsn";
import type { Ctx } from "../../src/core/context";
import { digestBatch } from "../../src/core/digest/batch";
import { createProject } from "../../src/core/projects/create-project";
import { snippets, type Snippet } from "../../src/core/projects/snippets";
import { envelopeLimits } from "../../src/server/ingest/ingest-runtime";
import type { TestStore } from "./stores";
import { decodePayload } from "../../src/core/storage/payload";

/** One frame of a stored exception, as the issue page shows it. */
export interface StoredFrame {
  function?: string;
  filename?: string;
  module?: string;
  in_app?: boolean;
}

/** What a guide's first event became: its issue and the event's platform and innermost stack. */
export interface StoredIssue {
  title: string;
  level: string;
  times: number;
  platform: string | undefined;
  exceptionType: string | undefined;
  frames: StoredFrame[];
}

interface EventData {
  platform?: string;
  exception?: { values?: { type?: string; stacktrace?: { frames?: StoredFrame[] } }[] };
}

/** A project of `platform` and its guide at `path`, with the project's DSN filled in as the page fills it. */
export async function projectGuide(
  ctx: Ctx,
  base: string,
  org: string,
  platform: string,
  path: string,
): Promise<{ projectId: number; dsn: string; guide: Snippet }> {
  const { project, key } = await createProject({ ctx, input: { org, slug: platform, platform } });
  const dsn = buildDsn(base, key.public_key, project.id);
  const guide = snippets(dsn).find((s) => s.path === path);
  if (!guide) throw new Error(`no guide at ${path}`);
  return { projectId: project.id, dsn, guide };
}

/** Writes a guide's files, exactly as the page shows them (names may hold folders), into a fresh directory. */
export function writeGuide(guide: Snippet, dir = mkdtempSync(join(tmpdir(), `telltale-guide-${guide.path.replace("/", "-")}-`))): string {
  for (const f of guide.files) {
    mkdirSync(dirname(join(dir, f.name)), { recursive: true });
    writeFileSync(join(dir, f.name), f.code);
  }
  return dir;
}

/** The file of a guide the page shows under `name`. */
export function guideFile(guide: Snippet, name: string): string {
  const file = guide.files.find((f) => f.name === name);
  if (!file) throw new Error(`the ${guide.title} guide shows no ${name}`);
  return file.code;
}

/** Digests everything queued, then reads the project's issues with their latest event. */
export async function storedIssues(store: TestStore, ctx: Ctx, projectId: number): Promise<StoredIssue[]> {
  const limits = envelopeLimits(parseSettings({}).ingest);
  while ((await digestBatch(ctx, { batchSize: 50, limits })) > 0);
  const rows = await store.db
    .selectFrom("issues")
    .innerJoin("events", "events.issue_id", "issues.id")
    .select(["issues.id", "issues.title", "issues.level", "issues.times_seen", "events.data"])
    .where("issues.project_id", "=", projectId)
    .orderBy("issues.id")
    .orderBy("events.id", "desc")
    .execute();
  const seen = new Set<number>();
  const issues: StoredIssue[] = [];
  for (const row of rows) {
    if (seen.has(row.id)) continue;
    seen.add(row.id);
    const data = JSON.parse(decodePayload(row.data)) as EventData;
    const exception = data.exception?.values?.at(-1);
    issues.push({
      title: row.title,
      level: row.level,
      times: Number(row.times_seen),
      platform: data.platform,
      exceptionType: exception?.type,
      frames: exception?.stacktrace?.frames ?? [],
    });
  }
  return issues;
}
