import Link from "next/link";
import { redirect } from "next/navigation";
import { challengePending } from "@/src/core/twofactor/challenge";
import { currentUser, safeNext } from "../../lib/auth";
import { ctx } from "../../lib/app-runtime";
import { challengeCookie } from "../../lib/second-factor";
import { SecondFactorForm } from "./second-factor-form";

export const dynamic = "force-dynamic";
export const metadata = { title: "Two-factor sign-in" };

/** The sign-in's second step; without a pending sign-in (none, or expired) it starts over. */
export default async function SecondFactorPage({ searchParams }: { searchParams: Promise<{ next?: string }> }) {
  const next = safeNext((await searchParams).next);
  if (await currentUser()) redirect(next);
  if (!(await challengePending(ctx(), await challengeCookie()))) redirect(`/login?next=${encodeURIComponent(next)}`);
  return (
    <main className="narrow">
      <h1>Two-factor sign-in</h1>
      <SecondFactorForm next={next} />
      <p>
        <Link href="/login">Sign in as someone else</Link>
      </p>
    </main>
  );
}
