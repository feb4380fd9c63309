/**
 * Discover's `field=` strings (Sentry's "Query Discover Events in Table Format",
 * docs.sentry.io/api/discover/query-discover-events-in-table-format/): plain fields and
 * functions, checked against a dataset's registry. The spans and logs datasets add entries to
 * DATASETS; the parser and the endpoints stay as they are.
 */
import { invalidInput } from "../errors";
import type { DiscoverAggregate, DiscoverColumnName } from "../ports/discover";
import type { Term } from "../search/ast";

export interface Dataset {
  name: "errors";
  /** Field name → stored column. */
  columns: Readonly<Record<string, DiscoverColumnName>>;
  /** The search terms the dataset can answer; the others are refused with their name. */
  supports(term: Term): boolean;
}

const ERROR_COLUMNS: Record<string, DiscoverColumnName> = {
  title: "title",
  message: "title",
  project: "project",
  release: "release",
  environment: "environment",
  level: "level",
  timestamp: "timestamp",
  id: "id",
  "issue.id": "issue.id",
};

export const DATASETS: Readonly<Record<string, Dataset>> = {
  errors: {
    name: "errors",
    columns: ERROR_COLUMNS,
    supports: (term) =>
      term.type === "text" ||
      term.type === "level" ||
      (term.type === "field" && term.field === "title") ||
      (term.type === "tag" && (term.key === "release" || term.key === "environment")),
  },
};

/** `?dataset=`: none (as Grafana sends it) means errors. */
export function datasetOf(name: string | null): Dataset {
  const dataset = DATASETS[name || "errors"];
  if (!dataset) throw invalidInput(`dataset must be one of ${Object.keys(DATASETS).join(", ")}`);
  return dataset;
}

export type ParsedField = { kind: "column"; key: string; column: DiscoverColumnName } | { kind: "aggregate"; aggregate: DiscoverAggregate };

/** One `field=` string; the key is the string as given, which is how rows name it. */
export function parseField(dataset: Dataset, text: string): ParsedField {
  const call = /^([a-z_]+)\((.*)\)$/.exec(text.trim());
  if (!call) {
    const column = dataset.columns[text];
    if (!column) throw invalidInput(`unknown field ${JSON.stringify(text)} on the ${dataset.name} dataset`);
    return { kind: "column", key: text, column };
  }
  const [, fn = "", arg = ""] = call;
  const key = text;
  if ((fn === "count" || fn === "last_seen" || fn === "first_seen") && arg.trim() === "") {
    return { kind: "aggregate", aggregate: { key, fn } };
  }
  if (fn === "count_unique") {
    const column = dataset.columns[arg.trim()];
    if (column) return { kind: "aggregate", aggregate: { key, fn, column } };
  }
  throw invalidInput(`unknown function ${JSON.stringify(text)} on the ${dataset.name} dataset`);
}
