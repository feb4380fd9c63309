"use client";

import { useActionState } from "react";
import { logoutAction } from "../actions/session";
import type { FormState } from "../lib/forms";

/** Sign out posts a server action like every other form; its answer is the redirect to /login. */
export function SignOut({ email }: { email: string }) {
  const [, action] = useActionState<FormState, FormData>(logoutAction, {});
  return (
    <form action={action}>
      <span className="muted who">{email}</span> <button type="submit">Sign out</button>
    </form>
  );
}
