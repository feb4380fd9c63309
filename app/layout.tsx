import type { Metadata } from "next";
import Link from "next/link";
import { currentUser } from "./lib/auth";
import { runtime } from "./lib/app-runtime";
import { SignOut } from "./components/sign-out";
import "./globals.css";

export const metadata: Metadata = { title: { default: "Telltale", template: "%s · Telltale" } };

/** What the browser SDK needs at run time (instrumentation-client.ts reads it); null when self-monitoring is off. */
function browserSentryConfig(): string | null {
  const { selfMonitoring, settings } = runtime();
  if (!selfMonitoring) return null;
  return JSON.stringify({ dsn: selfMonitoring.browserDsn, tunnel: selfMonitoring.tunnel, tracesSampleRate: settings.selfTracesSampleRate });
}

export default async function RootLayout({ children }: { children: React.ReactNode }) {
  const user = await currentUser();
  const sentry = browserSentryConfig();
  return (
    <html lang="en">
      <head>{sentry && <meta name="telltale-sentry" content={sentry} />}</head>
      <body>
        <header className="top">
          <Link href="/" className="brand">
            Telltale
          </Link>
          <nav>{user && <Link href="/orgs">Organizations</Link>}</nav>
          {user && <SignOut email={user.email} />}
        </header>
        {children}
      </body>
    </html>
  );
}
