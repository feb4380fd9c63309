/**
 * A project's list of releases to drop, as globs (`*`, `?`, whole-text) on the event's
 * `release`, like Sentry's release filter. Case-sensitive: release names are
 * identifiers (versions, commit SHAs), and a looser match would drop more than asked.
 * An event without a release is never dropped here.
 */
import { matchesAnyGlob } from "./glob";
import { MAX_TEXT_LENGTH, field, text } from "./read";
import { type FilterableEvent, type FilterReason, type InboundFilterConfig } from "./types";

export function shouldFilter(event: FilterableEvent, cfg: InboundFilterConfig): FilterReason | null {
  if (cfg.releases.length === 0) return null;
  const release = text(field(event, "release"));
  if (release === undefined) return null;
  return matchesAnyGlob(cfg.releases, [release.slice(0, MAX_TEXT_LENGTH)]) ? "release-version" : null;
}
