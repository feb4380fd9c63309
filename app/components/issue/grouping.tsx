import {
  computeGrouping,
  groupingStrategy,
  isGroupingConfig,
  type FingerprintRule,
  type GroupingComponent,
} from "@/src/core/grouping/index";
import type { NormalizedEvent } from "@/src/core/normalize/types";

function Node({ node }: { node: GroupingComponent }) {
  return (
    <li>
      <span style={{ opacity: node.contributes ? 1 : 0.55 }}>
        <strong>{node.id}</strong>
        {node.contributes ? "" : " (ignored)"}
        {node.hint && <span className="muted-small"> — {node.hint}</span>}
      </span>
      <ul style={{ margin: 0, paddingLeft: "1.1rem" }}>
        {node.values.map((v, i) =>
          typeof v === "string" ? (
            <li key={i} className="culprit" style={{ opacity: node.contributes ? 1 : 0.55 }}>
              {v}
            </li>
          ) : (
            <Node key={i} node={v} />
          ),
        )}
      </ul>
    </li>
  );
}

/**
 * Why this event is in this issue: the grouping recomputed for the stored event with the
 * issue's strategy (strategies are fixed versions) and the project's fingerprint rules, as the
 * digest computed it, each variant with the parts that contributed to its hash and why the
 * others did not. The hash is checked against those the issue holds: when the rules changed
 * since the event was grouped, the page says so instead of showing a hash that is not the issue's.
 */
export function GroupingExplanation({
  event,
  config,
  rules,
  issueHashes,
}: {
  event: NormalizedEvent;
  config: string;
  rules: readonly FingerprintRule[];
  issueHashes: readonly string[];
}) {
  if (!isGroupingConfig(config)) return null;
  const result = computeGrouping(event, { config, rules });
  const own = issueHashes.includes(result.hash);
  return (
    <section className="panel" data-testid="grouping">
      <details>
        <summary>
          <strong>Why events group here</strong>{" "}
          <span className="muted-small">
            {groupingStrategy(config).id} · hash <span data-testid="grouping-hash">{result.hash}</span>
          </span>
        </summary>
        {!own && (
          <p className="muted" data-testid="grouping-stale">
            Under today&apos;s fingerprint rules this event would get a hash this issue does not hold (
            {issueHashes.length === 1 ? "it holds" : "it holds these"} <code>{issueHashes.join(", ")}</code>): the rules or the event&apos;s
            grouping inputs changed after it was grouped. Events that arrive now group as shown below.
          </p>
        )}
        {result.fingerprint && (
          <p>
            Fingerprint from the {result.fingerprint.source === "sdk" ? "SDK" : `rule on line ${result.fingerprint.rule?.line ?? "?"}`}:{" "}
            <code>{JSON.stringify(result.fingerprint.resolved)}</code>
          </p>
        )}
        {result.variants.map((v) => (
          <div key={v.id} style={{ marginTop: "0.5rem" }}>
            <p style={{ margin: 0 }}>
              <strong>{v.id}</strong> {v.contributes ? <span className="badge on">used</span> : <span className="badge">not used</span>}{" "}
              <span className="muted-small">
                {v.description}
                {v.hint ? ` — ${v.hint}` : ""}
              </span>
            </p>
            {v.component && (
              <ul style={{ marginTop: 0 }}>
                <Node node={v.component} />
              </ul>
            )}
            {v.values && <code>{JSON.stringify(v.values)}</code>}
          </div>
        ))}
      </details>
    </section>
  );
}
