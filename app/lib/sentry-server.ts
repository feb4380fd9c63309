import * as Sentry from "@sentry/nextjs";
import type { Instrumentation } from "next";
import { getRuntime } from "@/src/server/app-handoff";
import { IGNORE_ERRORS } from "./sentry-shared";

/** Starts the server SDK with the target src/server/next-worker.ts resolved; does nothing when self-monitoring is off. */
export function initServerSentry(): void {
  const rt = getRuntime();
  if (!rt?.selfMonitoring) return;
  Sentry.init({
    dsn: rt.selfMonitoring.serverDsn,
    tracesSampleRate: rt.settings.selfTracesSampleRate,
    ignoreErrors: IGNORE_ERRORS,
  });
  rt.monitor = { captureException: (e) => void Sentry.captureException(e), flush: (ms) => Sentry.flush(ms) };
}

export function reportRequestError(...[error, request, context]: Parameters<Instrumentation.onRequestError>): void {
  const digest = error !== null && typeof error === "object" && "digest" in error ? String(error.digest) : undefined;
  Sentry.withScope((scope) => {
    if (digest) scope.setTag("digest", digest);
    Sentry.captureRequestError(error, request, context);
  });
}
