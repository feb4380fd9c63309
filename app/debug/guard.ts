import { notFound } from "next/navigation";
import { runtime } from "../lib/app-runtime";

/**
 * The /debug pages throw on purpose. They answer 404 unless TELLTALE_DEBUG_PAGES is set (the
 * end-to-end tests set it to check the error pages); each page then asks the permission
 * table for a signed-in user, as every page does.
 */
export function requireDebugPages(): void {
  if (!runtime().settings.debugPages) notFound();
}
