import { redirect } from "next/navigation";
import { isSetUp } from "@/src/core/accounts/is-set-up";
import { ctx } from "../lib/app-runtime";
import { SetupForm } from "./setup-form";

export const dynamic = "force-dynamic";
export const metadata = { title: "Set up" };

export default async function SetupPage() {
  if (await isSetUp(ctx())) redirect("/login");
  return (
    <main className="narrow">
      <h1>Welcome to Telltale</h1>
      <p className="muted">No account exists yet. Create the first administrator and your organization.</p>
      <SetupForm />
    </main>
  );
}
