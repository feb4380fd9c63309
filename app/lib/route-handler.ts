import type { PublicPermission } from "@/src/core/permissions/table";

/** A Next.js route handler (a `route.ts` under app/) with its dynamic segments. */
export type RouteHandler<Params> = (request: Request, context: { params: Promise<Params> }) => Promise<Response>;

/**
 * The only way an a `route.ts` under app/ may export a handler: it names its public row of the
 * permission table (test/integration/permissions-static.test.ts checks it). Pages and server
 * actions cannot answer a provider's redirect with a cookie, so single sign-on's callback is one.
 */
export function publicRoute<Params>(permission: PublicPermission, handler: RouteHandler<Params>): RouteHandler<Params> {
  // Nothing to ask for a public row: the name is there for the table and the static test.
  void permission;
  return handler;
}
