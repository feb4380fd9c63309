import { loadUser } from "../../lib/loaders";
import { requireDebugPages } from "../guard";
import { Thrower } from "./thrower";

export const dynamic = "force-dynamic";

/** A button that throws in the browser; the check happens on the server, before any of it is sent. */
export default async function ClientErrorPage() {
  requireDebugPages();
  await loadUser("account:read", "/debug/client-error");
  return (
    <main>
      <h1>Client error check</h1>
      <Thrower />
    </main>
  );
}
