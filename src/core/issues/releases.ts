/**
 * Orders two release names: semantic versions (with an optional `package@` prefix) by
 * version; anything else only by equality. Returns null when they cannot be ordered.
 */
export function compareReleases(a: string, b: string): number | null {
  if (a === b) return 0;
  const pa = parse(a);
  const pb = parse(b);
  if (!pa || !pb || pa.pkg !== pb.pkg) return null;
  for (let i = 0; i < 3; i++) {
    const d = (pa.parts[i] ?? 0) - (pb.parts[i] ?? 0);
    if (d !== 0) return Math.sign(d);
  }
  // 1.0.0-rc.1 < 1.0.0
  if (pa.pre === pb.pre) return 0;
  if (!pa.pre) return 1;
  if (!pb.pre) return -1;
  return pa.pre < pb.pre ? -1 : 1;
}

function parse(release: string): { pkg: string; parts: number[]; pre: string } | null {
  const m = /^(?:(.+)@)?v?(\d+)(?:\.(\d+))?(?:\.(\d+))?(?:-([0-9A-Za-z.-]+))?(?:\+[0-9A-Za-z.-]+)?$/.exec(release);
  if (!m) return null;
  return { pkg: m[1] ?? "", parts: [Number(m[2]), Number(m[3] ?? 0), Number(m[4] ?? 0)], pre: m[5] ?? "" };
}
