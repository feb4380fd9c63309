import type { ReactNode } from "react";
import { PersonalShell } from "../components/shell/personal-shell";

/**
 * Server administration sits in the shell like an organization's pages, so the navigation stays.
 * The pages answer not-found to anyone but a superuser, inside the shell of their own organizations.
 */
export default function AdminLayout({ children }: { children: ReactNode }) {
  return <PersonalShell>{children}</PersonalShell>;
}
