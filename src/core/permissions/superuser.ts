import { notFound } from "../errors";
import type { SuperuserPermission } from "./table";

/**
 * The check of the `superuser` audience: the user's own flag, nothing else (no organization
 * role grants it). Anyone else gets "not found", so the admin pages do not show they exist.
 */
export function requireSuperuser<U extends { is_superuser: number }>(user: U | null, permission: SuperuserPermission): U {
  void permission; // every superuser row allows every superuser; the name is for the table and the static test
  if (user?.is_superuser !== 1) throw notFound("This page does not exist.");
  return user;
}
