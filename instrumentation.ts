import type { Instrumentation } from "next";

/** Next.js calls this once per server start, inside `app.prepare()` in the UI worker. */
export async function register(): Promise<void> {
  if (process.env.NEXT_RUNTIME === "nodejs") {
    const { initServerSentry } = await import("./app/lib/sentry-server");
    initServerSentry();
  }
}

/**
 * Reports errors of server components, route handlers and actions. The digest the error
 * page shows is put in a tag, so a user's report of "digest 123" finds its event.
 */
export const onRequestError: Instrumentation.onRequestError = async (error, request, context) => {
  if (process.env.NEXT_RUNTIME !== "nodejs") return;
  const { reportRequestError } = await import("./app/lib/sentry-server");
  reportRequestError(error, request, context);
};
