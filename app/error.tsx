"use client";

import * as Sentry from "@sentry/nextjs";
import { useEffect } from "react";
import { ErrorFallback } from "./components/fallback";

export default function ErrorPage({ error, reset }: { error: Error & { digest?: string }; reset: () => void }) {
  useEffect(() => {
    // A server error (it has a digest) was reported by the server's onRequestError already.
    if (!error.digest) Sentry.captureException(error);
  }, [error]);
  return <ErrorFallback digest={error.digest} onRetry={reset} />;
}
