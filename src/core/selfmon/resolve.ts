import type { SelfMonitoring } from "../../config/settings";
import { buildDsn, parseDsn } from "../auth/dsn";
import type { Ctx } from "../context";
import { internalProject } from "./internal-project";

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
  const project = await internalProject(ctx);
  const keys = project ? await ctx.projectKeys.list(project.id) : [];
  const key = keys.find((k) => k.is_active === 1);
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
