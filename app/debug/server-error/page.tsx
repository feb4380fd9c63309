import { loadUser } from "../../lib/loaders";
import { requireDebugPages } from "../guard";

export const dynamic = "force-dynamic";

/** Throws on the server, to check the error page and self-monitoring end to end. */
export default async function ServerErrorPage() {
  requireDebugPages();
  await loadUser("account:read", "/debug/server-error");
  throw new Error("Telltale debug: deliberate server error");
}
