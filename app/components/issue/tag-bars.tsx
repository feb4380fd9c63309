import Link from "next/link";
import type { TagDistribution } from "@/src/core/issues/queries";
import { percentShares } from "../../lib/shares";

const COLORS = ["#5b3fd1", "#8c6ff0", "#b3a1f5", "#d6ccfa", "#ece7fd"];

/** Top values of each tag with their share of the events; each value links to a search. */
export function TagBars({ tags, searchHref }: { tags: TagDistribution[]; searchHref: (key: string, value: string) => string }) {
  if (tags.length === 0) return <p className="muted">No tags yet.</p>;
  return (
    <div data-testid="tags">
      {tags.map((t) => {
        // Largest-remainder shares: the listed values' percentages never add up to more than 100.
        const shares = percentShares(
          t.top.map((v) => v.count),
          t.total,
        );
        return (
          <div className="tagbar" key={t.key}>
            <strong>{t.key}</strong>
            <div className="bar">
              {t.top.map((v, i) => (
                <span
                  key={v.value}
                  style={{ width: `${(v.count / t.total) * 100}%`, background: COLORS[i % COLORS.length] }}
                  title={`${v.value}: ${v.count}`}
                />
              ))}
            </div>
            <ul>
              {t.top.map((v, i) => (
                <li key={v.value}>
                  <span>
                    <Link href={searchHref(t.key, v.value)}>{v.value}</Link>
                  </span>
                  <span className="muted">{shares[i] ?? 0}%</span>
                </li>
              ))}
            </ul>
          </div>
        );
      })}
    </div>
  );
}
