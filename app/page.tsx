import { redirect } from "next/navigation";
import { isSetUp } from "@/src/core/accounts/is-set-up";
import { listOrganizations } from "@/src/core/orgs/access";
import { currentUser } from "./lib/auth";
import { ctx } from "./lib/app-runtime";

export const dynamic = "force-dynamic";

/** First run → setup; signed out → login; else the user's first organization. */
export default async function Home() {
  if (!(await isSetUp(ctx()))) redirect("/setup");
  const user = await currentUser();
  if (!user) redirect("/login");
  const orgs = await listOrganizations(ctx(), user);
  const first = orgs.find((o) => !o.org.is_internal) ?? orgs[0];
  redirect(first ? `/orgs/${first.org.slug}` : "/orgs");
}
