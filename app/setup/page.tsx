import { redirect } from "next/navigation";
import { countUsers } from "@/src/core/accounts/create-user";
import { ctx } from "../lib/app-runtime";
import { SetupForm } from "./setup-form";

export const dynamic = "force-dynamic";
export const metadata = { title: "Set up" };

export default async function SetupPage() {
  if ((await countUsers(ctx().db)) > 0) redirect("/login");
  return (
    <main className="narrow">
      <h1>Welcome to Telltale</h1>
      <p className="muted">No account exists yet. Create the first administrator and your organization.</p>
      <SetupForm />
    </main>
  );
}
