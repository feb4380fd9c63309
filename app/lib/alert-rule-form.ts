/**
 * The rule editor's form (the project's Alerts page) and Sentry's rule shape, both ways: a rule
 * becomes the form's field values, and the posted fields become the body the web API takes, so
 * one validation (src/core/alerts/rule-schema.ts) serves both. The form has one slot per kind of
 * condition, filter and action (an email, a webhook, a Slack and a Discord post); a rule with more
 * than that (two tag filters, two emails) is edited through the API, and the page says so.
 */
import { EVENT_FREQUENCY, USER_FREQUENCY, type Interval } from "@/src/core/alerts/frequency-conditions";
import { AGE_FILTER, ASSIGNED_FILTER, LATEST_RELEASE_FILTER, TAGGED_FILTER } from "@/src/core/alerts/issue-filters";
import {
  DISCORD_ACTION,
  EMAIL_ACTION,
  FIRST_SEEN,
  LEVEL_FILTER,
  REAPPEARED,
  REGRESSION,
  SLACK_ACTION,
  WEBHOOK_ACTION,
  type AlertRule,
} from "@/src/core/alerts/rule-schema";

export type FormValues = Record<string, string>;

/** The state conditions' checkboxes, by field name. */
export const STATE_SLOTS = { "c.first_seen": FIRST_SEEN, "c.regression": REGRESSION, "c.reappeared": REAPPEARED } as const;
const ON = "on";

/** The web actions' checkboxes and the field each keeps its URL in (as Sentry's shape names it). */
export const WEB_SLOTS = {
  "a.webhook": { id: WEBHOOK_ACTION, field: "url" },
  "a.slack": { id: SLACK_ACTION, field: "webhookUrl" },
  "a.discord": { id: DISCORD_ACTION, field: "webhookUrl" },
} as const;

/** What a new rule's form starts with. */
export const NEW_RULE_VALUES: FormValues = {
  name: "",
  environment: "",
  actionMatch: "any",
  filterMatch: "all",
  frequency: "30",
  "c.events.value": "100",
  "c.events.interval": "1h",
  "c.users.value": "10",
  "c.users.interval": "1h",
  "f.level.match": "gte",
  "f.level.level": "40",
  "f.tag.match": "eq",
  "f.age.comparison_type": "newer",
  "f.age.value": "1",
  "f.age.time": "day",
  "f.assigned.target": "Unassigned",
  "a.email": ON,
  "action.target": "IssueOwners",
};

const target = (type: string, id: number | null) => (type === "Team" || type === "Member" ? `${type}:${id}` : type);

/** A rule's form values; null when the form cannot hold it (more than one entry of a kind). */
export function formValuesOf(rule: AlertRule): FormValues | null {
  const v: FormValues = {
    ...NEW_RULE_VALUES,
    name: rule.name,
    environment: rule.environment ?? "",
    actionMatch: rule.actionMatch,
    filterMatch: rule.filterMatch,
    frequency: String(rule.frequency),
  };
  const seen = new Set<string>();
  const once = (slot: string) => {
    if (seen.has(slot)) return false;
    seen.add(slot);
    v[slot] = ON;
    return true;
  };
  for (const c of rule.conditions) {
    if (c.id === EVENT_FREQUENCY || c.id === USER_FREQUENCY) {
      const slot = c.id === EVENT_FREQUENCY ? "c.events" : "c.users";
      if (!once(slot)) return null;
      v[`${slot}.value`] = String(c.value);
      v[`${slot}.interval`] = c.interval;
    } else {
      const slot = Object.entries(STATE_SLOTS).find(([, id]) => id === c.id)?.[0];
      if (!slot || !once(slot)) return null;
    }
  }
  for (const f of rule.filters) {
    if (f.id === LEVEL_FILTER) {
      if (!once("f.level")) return null;
      Object.assign(v, { "f.level.match": f.match, "f.level.level": f.level });
    } else if (f.id === TAGGED_FILTER) {
      if (!once("f.tag")) return null;
      Object.assign(v, { "f.tag.key": f.key, "f.tag.match": f.match, "f.tag.value": f.value });
    } else if (f.id === AGE_FILTER) {
      if (!once("f.age")) return null;
      Object.assign(v, { "f.age.comparison_type": f.comparison_type, "f.age.value": String(f.value), "f.age.time": f.time });
    } else if (f.id === ASSIGNED_FILTER) {
      if (!once("f.assigned")) return null;
      v["f.assigned.target"] = target(f.targetType, f.targetIdentifier);
    } else if (!once("f.latest_release")) return null;
  }
  // A rule saved with web actions only starts with its email unticked.
  v["a.email"] = "";
  for (const a of rule.actions) {
    if (a.id === EMAIL_ACTION) {
      if (!once("a.email")) return null;
      v["action.target"] = target(a.targetType, a.targetIdentifier);
      continue;
    }
    const [slot, web] = Object.entries(WEB_SLOTS).find(([, w]) => w.id === a.id)!;
    if (!once(slot)) return null;
    v[`${slot}.${web.field}`] = a.id === WEBHOOK_ACTION ? a.url : a.webhookUrl;
  }
  return v;
}

/** `Team:7` → Sentry's `targetType` and `targetIdentifier`. */
function parseTarget(value: string): { targetType: string; targetIdentifier?: string } {
  const [type, id] = value.split(":", 2);
  return id === undefined ? { targetType: type ?? "" } : { targetType: type ?? "", targetIdentifier: id };
}

/**
 * The posted form as Sentry's rule body, and for each JSON path of an entry the form field it
 * came from (`conditions.1` → `c.users`), to put a validation message beside its field.
 */
export function ruleBodyOf(get: (name: string) => string): { body: Record<string, unknown>; fieldOf: Record<string, string> } {
  const fieldOf: Record<string, string> = {};
  const conditions: Record<string, unknown>[] = [];
  const filters: Record<string, unknown>[] = [];
  const add = (list: Record<string, unknown>[], path: string, slot: string, entry: Record<string, unknown>) => {
    if (get(slot) !== ON) return;
    fieldOf[`${path}.${list.length}`] = slot;
    list.push(entry);
  };
  for (const [slot, id] of Object.entries(STATE_SLOTS)) add(conditions, "conditions", slot, { id });
  for (const [slot, id] of [
    ["c.events", EVENT_FREQUENCY],
    ["c.users", USER_FREQUENCY],
  ] as const)
    add(conditions, "conditions", slot, {
      id,
      value: get(`${slot}.value`).trim(),
      interval: get(`${slot}.interval`) as Interval,
      comparisonType: "count",
    });
  add(filters, "filters", "f.level", { id: LEVEL_FILTER, match: get("f.level.match"), level: get("f.level.level") });
  add(filters, "filters", "f.tag", { id: TAGGED_FILTER, key: get("f.tag.key"), match: get("f.tag.match"), value: get("f.tag.value") });
  add(filters, "filters", "f.age", {
    id: AGE_FILTER,
    comparison_type: get("f.age.comparison_type"),
    value: get("f.age.value").trim(),
    time: get("f.age.time"),
  });
  add(filters, "filters", "f.assigned", { id: ASSIGNED_FILTER, ...parseTarget(get("f.assigned.target")) });
  add(filters, "filters", "f.latest_release", { id: LATEST_RELEASE_FILTER });
  const actions: Record<string, unknown>[] = [];
  if (get("a.email") === ON) {
    fieldOf[`actions.${actions.length}`] = "action.target";
    actions.push({ id: EMAIL_ACTION, ...parseTarget(get("action.target")) });
  }
  for (const [slot, web] of Object.entries(WEB_SLOTS))
    add(actions, "actions", slot, { id: web.id, [web.field]: get(`${slot}.${web.field}`).trim() });
  fieldOf.actions = "actions";
  const body = {
    name: get("name"),
    environment: get("environment").trim() || null,
    actionMatch: get("actionMatch"),
    filterMatch: get("filterMatch"),
    frequency: get("frequency").trim(),
    conditions,
    filters,
    actions,
  };
  return { body, fieldOf };
}

/**
 * Validation messages keyed by JSON path (`conditions.1.value`) as form field names
 * (`c.users.value`); a path with no field of its own goes to its entry's checkbox.
 */
export function formFieldErrors(
  fields: Record<string, string>,
  fieldOf: Record<string, string>,
  posted: Set<string>,
): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [path, message] of Object.entries(fields)) {
    const parts = path.split(".");
    const entry = parts.length >= 2 ? fieldOf[`${parts[0]}.${parts[1]}`] : undefined;
    let name = path;
    if (entry) {
      const leaf = parts.slice(2).join(".");
      const own = entry === "action.target" ? entry : leaf ? `${entry}.${leaf}` : entry;
      name = posted.has(own) ? own : entry;
    } else if (fieldOf[path]) name = fieldOf[path];
    if (!(name in out)) out[name] = message;
  }
  return out;
}
