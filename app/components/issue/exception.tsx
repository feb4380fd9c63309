import type { ExceptionValue, Frame } from "@/src/core/normalize/types";

function location(f: Frame): string {
  const file = f.filename ?? f.abs_path ?? f.module ?? "?";
  const at = f.lineno !== undefined ? `:${f.lineno}${f.colno !== undefined ? `:${f.colno}` : ""}` : "";
  return `${file}${at}`;
}

function FrameView({ frame, open }: { frame: Frame; open: boolean }) {
  const hasContext = frame.context_line !== undefined;
  const start = (frame.lineno ?? 0) - (frame.pre_context?.length ?? 0);
  const lines = [...(frame.pre_context ?? []), frame.context_line ?? "", ...(frame.post_context ?? [])];
  return (
    <details className={`frame ${frame.in_app ? "app" : "system"}`} open={open && hasContext} data-testid="frame">
      <summary>
        {frame.function ? <strong>{frame.function}</strong> : <em>anonymous</em>} <span className="muted">in</span> {location(frame)}
        {frame.in_app && (
          <span className="badge" style={{ marginLeft: 6 }}>
            in app
          </span>
        )}
      </summary>
      {hasContext && (
        <pre className="context">
          {lines.map((line, i) => (
            <span key={i} className={i === (frame.pre_context?.length ?? 0) ? "line current" : "line"}>
              {String(start + i).padStart(5, " ")} {line}
            </span>
          ))}
        </pre>
      )}
      {frame.vars && Object.keys(frame.vars).length > 0 && <pre className="context">{JSON.stringify(frame.vars, null, 2)}</pre>}
    </details>
  );
}

/** The exception chain, outermost first, with each stack trace newest frame first (Sentry's default). */
export function ExceptionChain({ values, full, raw }: { values: ExceptionValue[]; full: boolean; raw: boolean }) {
  const chain = [...values].reverse();
  if (raw) {
    // The raw view is the stack as the SDK sent it: minified where source maps resolved it.
    const text = chain
      .map((ex) => {
        const frames = [...((ex.raw_stacktrace ?? ex.stacktrace)?.frames ?? [])].reverse();
        return [`${ex.type ?? "Error"}: ${ex.value ?? ""}`, ...frames.map((f) => `    at ${f.function ?? "?"} (${location(f)})`)].join(
          "\n",
        );
      })
      .join("\n\ncaused by:\n");
    return <pre data-testid="raw-stack">{text}</pre>;
  }
  return (
    <div data-testid="exception">
      {chain.map((ex, i) => {
        const frames = [...(ex.stacktrace?.frames ?? [])].reverse();
        const anyApp = frames.some((f) => f.in_app);
        const shown = full || !anyApp ? frames : frames.filter((f) => f.in_app);
        return (
          <div key={i} style={{ marginBottom: "1rem" }}>
            <h3 style={{ margin: "0.25rem 0", wordBreak: "break-word" }}>
              {ex.type ?? "Error"}
              {ex.mechanism && ex.mechanism.handled === false && (
                <span className="badge off" style={{ marginLeft: 8 }}>
                  unhandled
                </span>
              )}
            </h3>
            <p style={{ marginTop: 0, wordBreak: "break-word", whiteSpace: "pre-wrap" }} data-testid="exception-value">
              {ex.value}
            </p>
            {shown.length > 0 && (
              <div className="frames">
                {shown.map((f, j) => (
                  <FrameView key={j} frame={f} open={j === 0} />
                ))}
              </div>
            )}
            {shown.length < frames.length && <p className="muted-small">{frames.length - shown.length} system frames hidden</p>}
          </div>
        );
      })}
    </div>
  );
}
