"use client";

import * as Sentry from "@sentry/nextjs";
import { useEffect } from "react";
import { ErrorFallback } from "./components/fallback";
import "./globals.css";

/** Replaces the root layout when the layout itself fails. */
export default function GlobalError({ error }: { error: Error & { digest?: string } }) {
  useEffect(() => {
    if (!error.digest) Sentry.captureException(error);
  }, [error]);
  return (
    <html lang="en">
      <body>
        <ErrorFallback digest={error.digest} />
      </body>
    </html>
  );
}
