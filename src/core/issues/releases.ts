/**
 * The order of releases, as Sentry keeps it for "resolve in (the next) release" and regressions:
 * by version when both releases are semantic versions of the same package, otherwise by when
 * each release was first seen in the organization (its creation, `date_added` in Sentry).
 */

/**
 * Orders two release names by semantic version (with an optional `package@` prefix and `v`,
 * minor and patch optional). Precedence follows SemVer 2.0 §11 (https://semver.org/#spec-item-11):
 * a prerelease is lower than its release, prerelease identifiers compare one by one (numeric ones
 * numerically and below alphanumeric ones, a shorter list lower when all else is equal), and build
 * metadata does not count. Returns null when either is not a version or their packages differ.
 */
export function compareReleases(a: string, b: string): number | null {
  if (a === b) return 0;
  const pa = parse(a);
  const pb = parse(b);
  if (!pa || !pb || pa.pkg !== pb.pkg) return null;
  for (let i = 0; i < 3; i++) {
    const d = pa.parts[i]! - pb.parts[i]!;
    if (d !== 0) return Math.sign(d);
  }
  return comparePrerelease(pa.pre, pb.pre);
}

/** When a release was first seen: its time (ms) and, for releases first seen in the same millisecond, its row id. */
export interface FirstSeen {
  at: number;
  id: number;
}

/** A release the store does not know yet: it is arriving now, so after every known one. */
export const ARRIVING: FirstSeen = { at: Infinity, id: Infinity };

/**
 * Release order with first-seen times to fall back on: by version where `compareReleases` can
 * order the two, otherwise by `firstSeen` (which answers ARRIVING for a release it does not
 * know). Two releases neither of which is known cannot be ordered (null).
 */
export function releaseOrder(firstSeen: (version: string) => FirstSeen): (a: string, b: string) => number | null {
  return (a, b) => {
    const byVersion = compareReleases(a, b);
    if (byVersion !== null) return byVersion;
    const ta = firstSeen(a);
    const tb = firstSeen(b);
    if (ta.at === Infinity && tb.at === Infinity) return null;
    return Math.sign(ta.at - tb.at) || Math.sign(ta.id - tb.id);
  };
}

/** Whether release order may compare this release by version. */
export const isVersion = (release: string): boolean => parse(release) !== null;

/**
 * The release "resolve in the next release" holds back, from the one last seen: when that is a
 * semantic version, the greatest version of its package among `candidates` (the project's
 * releases), as Sentry takes the greatest semver release — so that a late event from an old
 * release does not make a release already out count as the next one. Otherwise the release
 * last seen itself, as Sentry takes the last release when versions do not parse.
 */
export function releaseToHoldBack(lastSeen: string | null, candidates: readonly string[]): string | null {
  if (lastSeen === null || !parse(lastSeen)) return lastSeen;
  let greatest = lastSeen;
  for (const c of candidates) if ((compareReleases(c, greatest) ?? 0) > 0) greatest = c;
  return greatest;
}

interface Version {
  pkg: string;
  parts: [number, number, number];
  /** Prerelease identifiers; empty for a release. */
  pre: string[];
}

const VERSION = /^(?:(.+)@)?v?(\d+)(?:\.(\d+))?(?:\.(\d+))?(?:-([0-9A-Za-z-]+(?:\.[0-9A-Za-z-]+)*))?(?:\+[0-9A-Za-z.-]+)?$/;

function parse(release: string): Version | null {
  const m = VERSION.exec(release);
  if (!m) return null;
  return {
    pkg: m[1] ?? "",
    parts: [Number(m[2]), Number(m[3] ?? 0), Number(m[4] ?? 0)],
    pre: m[5] ? m[5].split(".") : [],
  };
}

const NUMERIC = /^\d+$/;

function comparePrerelease(a: readonly string[], b: readonly string[]): number {
  // 1.0.0-rc.1 < 1.0.0
  if (a.length === 0 || b.length === 0) return Math.sign(b.length - a.length);
  for (let i = 0; i < Math.min(a.length, b.length); i++) {
    const d = compareIdentifier(a[i]!, b[i]!);
    if (d !== 0) return d;
  }
  return Math.sign(a.length - b.length);
}

function compareIdentifier(a: string, b: string): number {
  const an = NUMERIC.test(a);
  const bn = NUMERIC.test(b);
  if (an && bn) {
    // Compared as digits, so identifiers past 2^53 still order correctly.
    const x = a.replace(/^0+(?=\d)/, "");
    const y = b.replace(/^0+(?=\d)/, "");
    return Math.sign(x.length - y.length) || (x < y ? -1 : x > y ? 1 : 0);
  }
  if (an) return -1;
  if (bn) return 1;
  return a < b ? -1 : a > b ? 1 : 0;
}
