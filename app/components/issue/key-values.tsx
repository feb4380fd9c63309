import { isValidElement } from "react";

/** Name/value pairs as normalization stores headers, cookies and query strings (develop docs: request.mdx). */
function isPairs(v: unknown): v is [string, string][] {
  return (
    Array.isArray(v) &&
    v.length > 0 &&
    v.every((p) => Array.isArray(p) && p.length === 2 && typeof p[0] === "string" && typeof p[1] === "string")
  );
}

/** A JSON object (not an array, not an element), as event data holds them. */
function isPlainObject(v: unknown): v is Record<string, unknown> {
  return typeof v === "object" && v !== null && !Array.isArray(v) && !isValidElement(v);
}

const isPrimitive = (v: unknown): v is string | number | boolean =>
  typeof v === "string" || typeof v === "number" || typeof v === "boolean";

/** Nested objects get tables of their own down to this depth; deeper ones show as JSON text. */
const MAX_NESTING = 3;

const isEmpty = (v: unknown) =>
  v === undefined || v === null || v === "" || (Array.isArray(v) && v.length === 0) || (isPlainObject(v) && Object.keys(v).length === 0);

/** Whether a table of `rows` would show anything (empty values are left out). */
export const hasValues = (rows: [string, unknown][]) => rows.some(([, v]) => !isEmpty(v));

/** A value that is neither an element, pairs, nor an object shown as a table: as text. */
function asText(v: unknown): string {
  if (typeof v === "string") return v;
  if (Array.isArray(v) && v.every(isPrimitive)) return v.map(String).join(", ");
  return typeof v === "number" || typeof v === "boolean" ? String(v) : JSON.stringify(v, null, 2);
}

/**
 * A table of keys and values; every value is rendered as text, except an element the page made
 * itself (a formatted value: JSON, and so event data, cannot make a React element). A list of
 * name/value pairs (request headers, cookies) and an object (a context's nested data, extra data)
 * become nested tables, objects down to three levels; a list of plain values reads "a, b, c";
 * anything else shows as JSON text. Empty values are left out.
 * `testId` names the table, and each nested table gets `${testId}-${key in lower case}`.
 */
export function KeyValues({ rows, testId, depth = 0 }: { rows: [string, unknown][]; testId?: string; depth?: number }) {
  const shown = rows.filter(([, v]) => !isEmpty(v));
  if (shown.length === 0) return <p className="muted">Nothing recorded.</p>;
  return (
    <table className="kv" data-testid={testId}>
      <tbody>
        {shown.map(([k, v], i) => {
          const nestedId = testId && `${testId}-${k.toLowerCase()}`;
          return (
            <tr key={`${k}-${i}`}>
              <th>{k}</th>
              <td>
                {isValidElement(v) ? (
                  v
                ) : isPairs(v) ? (
                  <KeyValues rows={v} testId={nestedId} depth={depth + 1} />
                ) : isPlainObject(v) && depth < MAX_NESTING ? (
                  <KeyValues rows={Object.entries(v)} testId={nestedId} depth={depth + 1} />
                ) : (
                  asText(v)
                )}
              </td>
            </tr>
          );
        })}
      </tbody>
    </table>
  );
}
