import Link from "next/link";
import { redirect } from "next/navigation";
import { countUsers } from "@/src/core/accounts/create-user";
import { currentUser, safeNext } from "../lib/auth";
import { ctx } from "../lib/app-runtime";
import { LoginForm } from "./login-form";

export const dynamic = "force-dynamic";
export const metadata = { title: "Sign in" };

export default async function LoginPage({ searchParams }: { searchParams: Promise<{ next?: string }> }) {
  if ((await countUsers(ctx().db)) === 0) redirect("/setup");
  const next = safeNext((await searchParams).next);
  if (await currentUser()) redirect(next);
  return (
    <main className="narrow">
      <h1>Sign in</h1>
      <LoginForm next={next} />
      <p>
        <Link href="/forgot-password">Forgot your password?</Link>
      </p>
    </main>
  );
}
