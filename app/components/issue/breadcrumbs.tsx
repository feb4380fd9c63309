import Link from "next/link";
import type { Breadcrumb } from "@/src/core/normalize/types";
import { isoOrUndefined } from "@/src/core/time-text";
import { LevelDot } from "../level-dot";

/** A breadcrumb's time of day to the millisecond; a stored time no Date holds, as the number it is. */
function clockTime(seconds: number): string {
  const iso = isoOrUndefined(seconds * 1000);
  return iso === undefined ? String(seconds) : iso.slice(11, 23);
}

/** Breadcrumbs as a timeline, newest last, filterable by level and category through the URL. */
export function Breadcrumbs({
  crumbs,
  level,
  category,
  href,
}: {
  crumbs: Breadcrumb[];
  level: string | null;
  category: string | null;
  href: (level: string | null, category: string | null) => string;
}) {
  const levels = [...new Set(crumbs.map((c) => c.level ?? "info"))].sort();
  const categories = [...new Set(crumbs.map((c) => c.category ?? "default"))].sort();
  const shown = crumbs.filter((c) => (!level || (c.level ?? "info") === level) && (!category || (c.category ?? "default") === category));
  return (
    <div data-testid="breadcrumbs">
      <div className="row" style={{ marginBottom: "0.5rem" }}>
        <span className="muted-small">Level:</span>
        <Link className={level === null ? "badge on" : "badge"} href={href(null, category)}>
          all
        </Link>
        {levels.map((l) => (
          <Link key={l} className={level === l ? "badge on" : "badge"} href={href(l, category)}>
            {l}
          </Link>
        ))}
        <span className="muted-small" style={{ marginLeft: 12 }}>
          Category:
        </span>
        <Link className={category === null ? "badge on" : "badge"} href={href(level, null)}>
          all
        </Link>
        {categories.map((c) => (
          <Link key={c} className={category === c ? "badge on" : "badge"} href={href(level, c)}>
            {c}
          </Link>
        ))}
      </div>
      <table className="kv">
        <thead>
          <tr>
            <th style={{ width: "18%" }}>Time</th>
            <th style={{ width: "14%" }}>Category</th>
            <th>Message</th>
            <th style={{ width: "9%" }}>Level</th>
          </tr>
        </thead>
        <tbody>
          {shown.map((c, i) => (
            <tr key={i} data-testid="breadcrumb">
              <td>{c.timestamp !== undefined ? clockTime(c.timestamp) : ""}</td>
              <td>{c.category ?? c.type ?? "default"}</td>
              <td>{c.message ?? (c.data ? JSON.stringify(c.data) : "")}</td>
              <td>
                <LevelDot level={c.level} />
                {c.level ?? "info"}
              </td>
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}
