import { isValidElement } from "react";

/** Name/value pairs as normalization stores headers, cookies and query strings (develop docs: request.mdx). */
function isPairs(v: unknown): v is [string, string][] {
  return (
    Array.isArray(v) &&
    v.length > 0 &&
    v.every((p) => Array.isArray(p) && p.length === 2 && typeof p[0] === "string" && typeof p[1] === "string")
  );
}

/**
 * A table of keys and values; every value is rendered as text, except an element the page made
 * itself (a formatted value: JSON, and so event data, cannot make a React element). A list of
 * name/value pairs (request headers, cookies) becomes a nested table of its own; other objects
 * show as JSON text.
 * `testId` names the table, and each nested table gets `${testId}-${key in lower case}`.
 */
export function KeyValues({ rows, testId }: { rows: [string, unknown][]; testId?: string }) {
  const shown = rows.filter(([, v]) => v !== undefined && v !== null && v !== "" && !(Array.isArray(v) && v.length === 0));
  if (shown.length === 0) return <p className="muted">Nothing recorded.</p>;
  return (
    <table className="kv" data-testid={testId}>
      <tbody>
        {shown.map(([k, v], i) => (
          <tr key={`${k}-${i}`}>
            <th>{k}</th>
            <td>
              {isValidElement(v) ? (
                v
              ) : isPairs(v) ? (
                <KeyValues rows={v} testId={testId && `${testId}-${k.toLowerCase()}`} />
              ) : typeof v === "string" ? (
                v
              ) : (
                JSON.stringify(v, null, 2)
              )}
            </td>
          </tr>
        ))}
      </tbody>
    </table>
  );
}
