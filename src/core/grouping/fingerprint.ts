/**
 * Fingerprint values and their variables, shared by SDK fingerprints and fingerprint rules
 * (docs.sentry.io "SDK Fingerprinting" and "Fingerprint Rules", Variables). `{{ default }}`
 * stands for the default grouping; other variables (`{{ transaction }}`, `{{ error.type }}`,
 * `{{ tags.server_name }}`, …) are replaced by the event's values, or by `<no-…>` markers when
 * the event has none, so a missing value still groups consistently.
 */
import { crashFrame, tagValue, topException } from "./event-view";
import type { NormalizedEvent } from "../normalize/types";

type Resolver = (event: NormalizedEvent) => string | undefined;

const frameField =
  (key: "function" | "abs_path" | "filename" | "module" | "package"): Resolver =>
  (event) =>
    crashFrame(event)?.[key];

const VARIABLES: ReadonlyMap<string, { resolve: Resolver; missing: string }> = new Map([
  ["transaction", { resolve: (e: NormalizedEvent) => e.transaction, missing: "<no-transaction>" }],
  ["error.type", { resolve: (e: NormalizedEvent) => topException(e)?.type, missing: "<no-type>" }],
  ["type", { resolve: (e: NormalizedEvent) => topException(e)?.type, missing: "<no-type>" }],
  ["error.value", { resolve: (e: NormalizedEvent) => topException(e)?.value, missing: "<no-value>" }],
  ["value", { resolve: (e: NormalizedEvent) => topException(e)?.value, missing: "<no-value>" }],
  ["stack.function", { resolve: frameField("function"), missing: "<no-function>" }],
  ["function", { resolve: frameField("function"), missing: "<no-function>" }],
  ["stack.abs_path", { resolve: frameField("abs_path"), missing: "<no-abs-path>" }],
  ["path", { resolve: frameField("abs_path"), missing: "<no-abs-path>" }],
  ["stack.filename", { resolve: frameField("filename"), missing: "<no-filename>" }],
  ["stack.module", { resolve: frameField("module"), missing: "<no-module>" }],
  ["module", { resolve: frameField("module"), missing: "<no-module>" }],
  ["stack.package", { resolve: frameField("package"), missing: "<no-package>" }],
  ["package", { resolve: frameField("package"), missing: "<no-package>" }],
  ["logger", { resolve: (e: NormalizedEvent) => e.logger, missing: "<no-logger>" }],
  ["level", { resolve: (e: NormalizedEvent) => e.level, missing: "<no-level>" }],
  ["message", { resolve: (e: NormalizedEvent) => e.logentry?.formatted, missing: "<no-message>" }],
]);

/** Every variable name a fingerprint may use (`tags.<name>` aside), for the rules parser. */
export const VARIABLE_NAMES: readonly string[] = ["default", ...VARIABLES.keys(), "tags.<name>"];

export function isKnownVariable(name: string): boolean {
  return name === "default" || VARIABLES.has(name) || (name.startsWith("tags.") && name.length > 5);
}

/** One `{{ name }}` in a value: its name (trimmed) and where it starts and ends. */
export interface VariableRef {
  name: string;
  start: number;
  end: number;
}

/** The `{{ … }}` references in a value, left to right; an unclosed `{{` is plain text. */
export function variableRefs(value: string): VariableRef[] {
  const out: VariableRef[] = [];
  let at = 0;
  for (;;) {
    const open = value.indexOf("{{", at);
    if (open === -1) return out;
    const close = value.indexOf("}}", open + 2);
    if (close === -1) return out;
    out.push({ name: value.slice(open + 2, close).trim(), start: open, end: close + 2 });
    at = close + 2;
  }
}

/** `{{ default }}` (any spacing) as the whole value. */
export function isDefaultValue(value: string): boolean {
  const refs = variableRefs(value.trim());
  return refs.length === 1 && refs[0]!.name === "default" && refs[0]!.start === 0 && refs[0]!.end === value.trim().length;
}

function resolveVariable(name: string, event: NormalizedEvent): string | undefined {
  if (name.startsWith("tags.") && name.length > 5) {
    const key = name.slice(5);
    return tagValue(event, key) ?? `<no-value-for-tag-${key}>`;
  }
  const variable = VARIABLES.get(name);
  if (!variable) return undefined;
  return variable.resolve(event) ?? variable.missing;
}

/** Substitutes the variables in one value; `{{ default }}` and unknown names stay as written. */
export function resolveValue(value: string, event: NormalizedEvent): string {
  if (isDefaultValue(value)) return "{{ default }}";
  let out = "";
  let last = 0;
  for (const ref of variableRefs(value)) {
    const resolved = ref.name === "default" ? undefined : resolveVariable(ref.name, event);
    if (resolved === undefined) continue;
    out += value.slice(last, ref.start) + resolved;
    last = ref.end;
  }
  return out + value.slice(last);
}

export function resolveFingerprint(values: readonly string[], event: NormalizedEvent): string[] {
  return values.map((v) => resolveValue(v, event));
}
