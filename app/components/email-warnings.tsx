import { emailSetup } from "@/src/core/preferences/email-setup";
import { ctx } from "../lib/app-runtime";

/**
 * Issue 14: with SMTP set but TELLTALE_URL at its default (or any loopback address), every link
 * in an email points at a machine the reader's mail client cannot reach. Renders nothing otherwise.
 */
export function LocalhostLinksWarning() {
  const setup = emailSetup(ctx());
  if (!setup.localhostLinks) return null;
  return (
    <p className="warning" role="note" data-testid="localhost-links">
      Links in emails point at <code>{setup.publicUrl}</code>, which only this server&apos;s machine reaches. Set <code>TELLTALE_URL</code>{" "}
      to the address people open Telltale at.
    </p>
  );
}
