import { requireUser } from "../../lib/auth";

export const dynamic = "force-dynamic";

/** Throws on the server, to check the error page and self-monitoring end to end. */
export default async function ServerErrorPage() {
  await requireUser("/debug/server-error");
  throw new Error("Telltale debug: deliberate server error");
}
