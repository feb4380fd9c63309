import { headers } from "next/headers";
import { unreachableDsnHost } from "@/src/core/auth/dsn";
import { ctx } from "../lib/app-runtime";

/**
 * Beside a DSN that names this machine (`TELLTALE_URL` unset or loopback) when the browser
 * reached Telltale at another address: an SDK elsewhere would send its events to its own
 * localhost. Renders nothing otherwise. The address shown is the Host header, as text.
 */
export async function DsnHostWarning() {
  const publicUrl = ctx().publicUrl;
  const reached = unreachableDsnHost(publicUrl, (await headers()).get("host"));
  if (!reached) return null;
  return (
    <p className="warning" role="note" data-testid="dsn-host-warning">
      This DSN sends to <code>{new URL(publicUrl).host}</code>, which only this server&apos;s machine reaches, but you opened Telltale at{" "}
      <code>{reached}</code>. Set <code>TELLTALE_URL</code> to the address SDKs reach Telltale at (e.g. <code>http://{reached}</code>) and
      restart.
    </p>
  );
}
