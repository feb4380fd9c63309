/** A table of keys and values; every value is rendered as text, objects as JSON text. */
export function KeyValues({ rows, testId }: { rows: [string, unknown][]; testId?: string }) {
  const shown = rows.filter(([, v]) => v !== undefined && v !== null && v !== "");
  if (shown.length === 0) return <p className="muted">Nothing recorded.</p>;
  return (
    <table className="kv" data-testid={testId}>
      <tbody>
        {shown.map(([k, v], i) => (
          <tr key={`${k}-${i}`}>
            <th>{k}</th>
            <td>{typeof v === "string" ? v : JSON.stringify(v, null, 2)}</td>
          </tr>
        ))}
      </tbody>
    </table>
  );
}
