/** The generic message shown for any application error (PRODUCT.md fact 4): no details, only the digest. */
export function ErrorFallback({ digest, onRetry }: { digest?: string | undefined; onRetry?: () => void }) {
  return (
    <main className="fallback" role="alert">
      <h1>Something went wrong</h1>
      <p className="muted">An unexpected error occurred. It has been reported.</p>
      {digest && (
        <p>
          Error digest:{" "}
          <span className="digest" data-testid="digest">
            {digest}
          </span>
        </p>
      )}
      {onRetry && (
        <button type="button" onClick={onRetry}>
          Try again
        </button>
      )}
    </main>
  );
}
