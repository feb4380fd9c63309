import { redirect } from "next/navigation";
import { countUsers } from "@/src/core/accounts/create-user";
import { listOrganizations } from "@/src/core/orgs/access";
import { currentUser } from "./lib/auth";
import { ctx } from "./lib/app-runtime";

export const dynamic = "force-dynamic";

/** First run → setup; signed out → login; else the user's first organization. */
export default async function Home() {
  if ((await countUsers(ctx().db)) === 0) redirect("/setup");
  const user = await currentUser();
  if (!user) redirect("/login");
  const orgs = await listOrganizations(ctx(), user);
  const first = orgs.find((o) => !o.org.is_internal) ?? orgs[0];
  redirect(first ? `/orgs/${first.org.slug}` : "/orgs");
}
