/**
 * Databag trimming: copies free-form JSON (extra, contexts, frame vars, breadcrumb data…) into
 * a bounded value. Like Relay's `BagSize`, a bag has a depth and an estimated JSON size; items
 * past the size are dropped, and a container at the depth limit becomes a short JSON string
 * (Relay stringifies databags at remaining depth 1). The walk copies, so no other clone is needed.
 */
import { type BagSize, MAX_COUNT } from "./limits";
import type { JsonObject, JsonValue } from "./types";
import { cleanString, isObject, setKey } from "./values";

/** A shared byte budget; `trimmed` records that something was cut or dropped. */
export class Budget {
  trimmed = false;
  remaining: number;

  constructor(bytes: number) {
    this.remaining = bytes;
  }

  get exhausted(): boolean {
    return this.remaining <= 0;
  }
}

// Beyond this nesting a stringified container is cut short: a 10 000-deep array costs nothing.
const MAX_STRINGIFY_DEPTH = 16;

/** Estimated JSON size of a primitive. */
function primitiveCost(value: string | number | boolean | null): number {
  if (typeof value === "string") return value.length + 2;
  if (typeof value === "number") return String(value).length;
  return value === null ? 4 : value ? 4 : 5;
}

function walk(value: unknown, depthLeft: number, budget: Budget): JsonValue | undefined {
  if (value === null || typeof value === "boolean") {
    budget.remaining -= primitiveCost(value);
    return value;
  }
  if (typeof value === "number") {
    if (!Number.isFinite(value)) return null;
    budget.remaining -= primitiveCost(value);
    return value;
  }
  if (typeof value === "string") {
    const room = Math.max(budget.remaining - 2, 0);
    if (value.length > room) budget.trimmed = true;
    const text = cleanString(value, room);
    budget.remaining -= text.length + 2;
    return text;
  }
  if (typeof value !== "object") return undefined;
  if (depthLeft <= 0) {
    budget.trimmed = true;
    return walk(compactJson(value, Math.max(budget.remaining - 2, 0)), 1, budget);
  }
  budget.remaining -= 2;
  if (Array.isArray(value)) {
    const out: JsonValue[] = [];
    for (let i = 0; i < value.length; i++) {
      if (budget.exhausted || out.length >= MAX_COUNT.bagBreadth) {
        budget.trimmed = true;
        break;
      }
      const item = walk(value[i], depthLeft - 1, budget);
      out.push(item === undefined ? null : item);
      budget.remaining -= 1;
    }
    return out;
  }
  const out: JsonObject = {};
  let count = 0;
  for (const key in value) {
    if (!Object.hasOwn(value, key)) continue;
    if (budget.exhausted || count >= MAX_COUNT.bagBreadth) {
      budget.trimmed = true;
      break;
    }
    const keyCost = key.length + 4;
    if (keyCost > budget.remaining) {
      budget.trimmed = true;
      break;
    }
    budget.remaining -= keyCost;
    const item = walk((value as Record<string, unknown>)[key], depthLeft - 1, budget);
    if (item === undefined) continue;
    setKey(out, key, item);
    count++;
  }
  return out;
}

/**
 * Copies `value` into a JSON value within `size` (or within a shared `budget`, for a total
 * across several bags). Returns `undefined` for values JSON cannot hold.
 */
export function trimValue(value: unknown, size: BagSize, budget: Budget = new Budget(size.bytes)): JsonValue | undefined {
  return walk(value, size.depth, budget);
}

/** Like `trimValue`, for bags that must be objects (extra, contexts, vars); anything else is absent. */
export function trimObject(value: unknown, size: BagSize, budget: Budget = new Budget(size.bytes)): JsonObject | undefined {
  if (!isObject(value)) return undefined;
  const out = walk(value, size.depth, budget);
  return isObject(out) ? (out as JsonObject) : undefined;
}

/**
 * A compact JSON rendering of `value` in at most `maxChars`, built piece by piece so a huge or
 * deeply nested value costs no more than the characters kept.
 */
export function compactJson(value: unknown, maxChars: number): string {
  const parts: string[] = [];
  let length = 0;
  const full = (): boolean => length >= maxChars;
  const emit = (text: string): void => {
    parts.push(text);
    length += text.length;
  };

  const render = (v: unknown, depth: number): void => {
    if (full()) return;
    if (v === null || typeof v === "boolean" || typeof v === "number") {
      emit(typeof v === "number" && !Number.isFinite(v) ? "null" : String(v));
    } else if (typeof v === "string") {
      emit(JSON.stringify(v.length > maxChars ? v.slice(0, maxChars) : v));
    } else if (typeof v !== "object") {
      emit("null");
    } else if (depth >= MAX_STRINGIFY_DEPTH) {
      emit(Array.isArray(v) ? "[…]" : "{…}");
    } else if (Array.isArray(v)) {
      emit("[");
      for (let i = 0; i < v.length && !full(); i++) {
        if (i > 0) emit(",");
        render(v[i], depth + 1);
      }
      emit("]");
    } else {
      emit("{");
      let first = true;
      for (const key in v) {
        if (full()) break;
        if (!Object.hasOwn(v, key)) continue;
        if (!first) emit(",");
        first = false;
        emit(JSON.stringify(key.length > maxChars ? key.slice(0, maxChars) : key) + ":");
        render((v as Record<string, unknown>)[key], depth + 1);
      }
      emit("}");
    }
  };

  render(value, 0);
  return cleanString(parts.join(""), maxChars);
}
