import type { ReactNode } from "react";
import { PersonalShell } from "../components/shell/personal-shell";

/** The account page sits in the shell like an organization's pages, so the navigation stays. */
export default function AccountLayout({ children }: { children: ReactNode }) {
  return <PersonalShell>{children}</PersonalShell>;
}
