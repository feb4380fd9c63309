import type { SelfMonitoring } from "../../config/settings";
import { INTERNAL_ORG_SLUG, INTERNAL_PROJECT_SLUG } from "../../db/migrations/0002_internal_project";
import { buildDsn, parseDsn } from "../auth/dsn";
import type { Ctx } from "../context";

/** Where Telltale's own SDKs send their envelopes (PRODUCT.md fact 2). */
export interface SelfMonitoringTarget {
  /** DSN for the server-side SDK. */
  serverDsn: string;
  /** DSN the browser SDK puts in its envelope headers. */
  browserDsn: string;
  /** Same-origin path the browser SDK posts to. */
  tunnel: string;
  /** Whether the events go to this Telltale's internal project. */
  internal: boolean;
}

export async function resolveSelfMonitoring(
  ctx: Ctx,
  setting: SelfMonitoring,
  loopbackUrl: string,
  tunnelPath: string,
): Promise<SelfMonitoringTarget | null> {
  if (setting.mode === "off") return null;
  if (setting.mode === "dsn") {
    if (!parseDsn(setting.dsn)) return null;
    return { serverDsn: setting.dsn, browserDsn: setting.dsn, tunnel: tunnelPath, internal: false };
  }
  const key = await ctx.db
    .selectFrom("project_keys")
    .innerJoin("projects", "projects.id", "project_keys.project_id")
    .innerJoin("organizations", "organizations.id", "projects.organization_id")
    .select(["project_keys.public_key", "projects.id as project_id"])
    .where("organizations.slug", "=", INTERNAL_ORG_SLUG)
    .where("projects.slug", "=", INTERNAL_PROJECT_SLUG)
    .where("project_keys.is_active", "=", 1)
    .orderBy("project_keys.id")
    .executeTakeFirst();
  if (!key) return null; // the internal project's keys were all disabled: self-monitoring is off
  return {
    // The server reports over loopback: TELLTALE_URL may be a proxy's address this process cannot reach.
    serverDsn: buildDsn(loopbackUrl, key.public_key, key.project_id),
    browserDsn: buildDsn(ctx.publicUrl, key.public_key, key.project_id),
    // The browser posts straight to this origin's ingest path; the envelope header names the DSN.
    tunnel: `/api/${key.project_id}/envelope/?sentry_version=7&sentry_key=${key.public_key}`,
    internal: true,
  };
}
