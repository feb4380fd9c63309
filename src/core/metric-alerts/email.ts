import { emailTime, renderEmail, type RenderedEmail } from "../email/templates";
import type { MetricAlertDetails } from "../ports/metric-alerts";
import { AGGREGATES } from "./schema";

const KIND_WORDS = { critical: "Critical", warning: "Warning", resolved: "Resolved" } as const;

/** "12 errors in the last 5 minutes"; users for count_unique(user). */
export function describeValue(d: Pick<MetricAlertDetails, "aggregate" | "value" | "timeWindow">): string {
  const noun = d.aggregate === "count()" ? (d.value === 1 ? "error" : "errors") : d.value === 1 ? "user affected" : "users affected";
  return `${d.value} ${noun} in the last ${windowWords(d.timeWindow)}`;
}

export function windowWords(minutes: number): string {
  if (minutes === 1) return "minute";
  if (minutes % 1440 === 0) return minutes === 1440 ? "day" : `${minutes / 1440} days`;
  if (minutes % 60 === 0) return minutes === 60 ? "hour" : `${minutes / 60} hours`;
  return `${minutes} minutes`;
}

/** The email a metric alert sends when its state changes: `[org] Critical: rule name`, the value against the threshold, a link. */
export function metricAlertEmail(kind: keyof typeof KIND_WORDS, d: MetricAlertDetails, url: string): RenderedEmail {
  const what = KIND_WORDS[kind];
  const comparison = d.threshold === null ? "" : ` (${kind === "resolved" ? "back " : ""}${kindComparison(kind, d)} ${d.threshold})`;
  return renderEmail({
    subject: `[${d.orgSlug}] ${what}: ${d.ruleName}`.slice(0, 250),
    heading: `${what}: ${d.ruleName}`,
    paragraphs: [`${describeValue(d)}${comparison}.`],
    details: [
      { label: "Metric", value: `${AGGREGATES[d.aggregate]} (${d.aggregate})` },
      { label: "Projects", value: d.projects.join(", ") || "(none left)" },
      ...(d.environment ? [{ label: "Environment", value: d.environment }] : []),
      ...(d.query ? [{ label: "Filter", value: d.query }] : []),
      { label: "Evaluated", value: emailTime(d.at) },
    ],
    action: { label: "Open the alert", url },
    footer: `Sent by the metric alert "${d.ruleName}" of ${d.orgSlug}.`,
  });
}

function kindComparison(kind: keyof typeof KIND_WORDS, d: MetricAlertDetails): string {
  const above = d.thresholdType === "above";
  if (kind === "resolved") return above ? "under" : "over";
  return above ? "over" : "under";
}
