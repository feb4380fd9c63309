/**
 * From Discover's parameters to a plan: the dataset, the fields (plain ones are grouped by when
 * there are functions), the search query in the issue search syntax, the sort and the page.
 */
import { invalidInput } from "../errors";
import type { DiscoverPlan } from "../ports/discover";
import { parseIssueQuery } from "../search";
import { datasetOf, parseField } from "./fields";

export interface DiscoverInput {
  dataset: string | null;
  fields: readonly string[];
  query: string;
  sort: string | null;
  projectIds: readonly number[];
  /** Seconds since the epoch. */
  start: number;
  end: number;
  limit: number;
  offset: number;
}

export const MAX_FIELDS = 20;

export function planOf(input: DiscoverInput): DiscoverPlan {
  const dataset = datasetOf(input.dataset);
  if (input.fields.length === 0) throw invalidInput("at least one field is required");
  if (input.fields.length > MAX_FIELDS) throw invalidInput(`at most ${MAX_FIELDS} fields`);
  const columns: DiscoverPlan["columns"][number][] = [];
  const aggregates: DiscoverPlan["aggregates"][number][] = [];
  for (const text of new Set(input.fields)) {
    const field = parseField(dataset, text);
    if (field.kind === "column") columns.push({ key: field.key, column: field.column });
    else aggregates.push(field.aggregate);
  }
  const parsed = parseIssueQuery(input.query);
  if (!parsed.ok) throw invalidInput(`invalid search query: ${parsed.error.message}`);
  const refused = parsed.query.terms.find((t) => !dataset.supports(t));
  if (refused) throw invalidInput(`the ${dataset.name} dataset cannot search by ${"key" in refused ? refused.key : refused.type}`);
  return {
    dataset: dataset.name,
    projectIds: input.projectIds,
    start: input.start,
    end: input.end,
    terms: parsed.query.terms,
    columns,
    aggregates,
    orderBy: sortOf(input.sort, [...columns.map((c) => c.key), ...aggregates.map((a) => a.key)]),
    limit: input.limit,
    offset: input.offset,
  };
}

/** `sort=-count()`: a selected field, `-` for descending; none sorts by the first field, descending. */
function sortOf(sort: string | null, keys: readonly string[]): DiscoverPlan["orderBy"] {
  if (!sort) return keys[0] === undefined ? [] : [{ key: keys[0], descending: true }];
  const descending = sort.startsWith("-");
  const key = descending ? sort.slice(1) : sort;
  if (!keys.includes(key)) throw invalidInput(`sort must be one of the selected fields: ${keys.join(", ")}`);
  return [{ key, descending }];
}
