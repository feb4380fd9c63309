import type { ProcessingError } from "@/src/core/normalize/types";

/** What each processing error means to a person (Sentry's types where it has one). */
const LABELS: Record<string, string> = {
  js_no_source: "No source map was found",
  js_invalid_source: "The source map could not be read",
  js_invalid_sourcemap_location: "The source map does not match the minified file",
  js_missing_sources_content: "The source map has no original source",
  enrichment_timeout: "Processing took too long",
  enrichment_failed: "Processing failed",
  enrichment_skipped: "Processing was skipped",
};

/**
 * Problems Telltale had processing the event (symbolication and other enrichment): the event is
 * stored as it came where a step could not run, and this says why.
 */
export function ProcessingErrors({ errors }: { errors: readonly ProcessingError[] }) {
  if (errors.length === 0) return null;
  return (
    <section className="panel notice-panel" data-testid="processing-errors">
      <h2 className="panel-title">
        {errors.length === 1 ? "There was 1 problem processing this event" : `There were ${errors.length} problems processing this event`}
      </h2>
      <ul>
        {errors.map((e, i) => (
          <li key={i}>
            <strong>{LABELS[e.type] ?? e.type.replaceAll("_", " ")}</strong>
            {e.value ? <span className="muted">: {e.value}</span> : null}
          </li>
        ))}
      </ul>
      {errors.some((e) => e.type.startsWith("js_")) && (
        <p className="muted-small">
          Upload the build&apos;s source maps with <code>sentry-cli sourcemaps inject</code> and <code>sourcemaps upload</code> (see the
          README), then new events are shown with their original code.
        </p>
      )}
    </section>
  );
}
