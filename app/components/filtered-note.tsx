import Link from "next/link";
import { filteredErrors } from "@/src/core/outcomes/query";
import type { Ctx } from "@/src/core/context";

/** Outcome reasons (src/core/filter/types.ts) as the end of "N events … were filtered". */
const REASONS: Record<string, string> = {
  localhost: "from localhost",
  "browser-extensions": "from browser extensions",
  "legacy-browsers": "from legacy browsers",
  "web-crawlers": "from web crawlers",
  "release-version": "from filtered releases",
  "error-message": "matching filtered error messages",
  "script-error": "of “Script error.”",
  "resize-observer": "of ResizeObserver loop warnings",
};

interface Props {
  ctx: Ctx;
  org: string;
  projects: readonly { id: number; slug: string; name: string }[];
  /** Start of the stream's time range (ms); 0 for any time. */
  since: number;
}

/**
 * Says why an empty issue stream is empty when inbound filters dropped errors:
 * "3 events from localhost were filtered — change", linking to the project's Stats page,
 * which breaks the outcomes down by reason.
 */
export async function FilteredNote({ ctx, org, projects, since }: Props) {
  const counts = await filteredErrors(
    ctx,
    projects.map((p) => p.id),
    since,
  );
  if (counts.length === 0) return null;
  const byId = new Map(projects.map((p) => [p.id, p]));
  return (
    <div className="filtered-note" data-testid="filtered-note">
      <p className="muted" style={{ margin: 0 }}>
        Inbound filters dropped errors in this range:
      </p>
      <ul>
        {counts.map((c) => {
          const p = byId.get(c.projectId);
          if (!p) return null;
          const what = REASONS[c.reason] ?? `by the ${c.reason} filter`;
          return (
            <li key={`${c.projectId} ${c.reason}`}>
              {c.quantity} {c.quantity === 1 ? "event" : "events"} {what} {c.quantity === 1 ? "was" : "were"} filtered
              {projects.length > 1 && ` in ${p.name}`} — <Link href={`/orgs/${org}/projects/${p.slug}/stats`}>change</Link>{" "}
              <span className="muted-small">
                (counts by reason on Stats; or <Link href={`/orgs/${org}/projects/${p.slug}/settings/filters`}>the filter settings</Link>)
              </span>
            </li>
          );
        })}
      </ul>
    </div>
  );
}
