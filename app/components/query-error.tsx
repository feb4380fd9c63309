import { explainQueryError } from "@/src/core/search/explain";

/** An invalid search: the parser's message naming the term, and the query with the spot marked. */
export function QueryError({ query, error }: { query: string; error: { message: string; position: number } }) {
  const e = explainQueryError(query, error);
  return (
    <div className="error query-error" role="alert" data-testid="query-error">
      <p>Invalid search: {e.message}</p>
      {query && (
        <code className="query-error-text" aria-label={`Position ${e.position} of the query`}>
          {e.before}
          <mark data-testid="query-error-mark">{e.at || " "}</mark>
          {e.after}
        </code>
      )}
    </div>
  );
}
