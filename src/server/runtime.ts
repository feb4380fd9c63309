import type { Settings } from "../config/settings.js";
import type { Ctx } from "../core/context.js";
import type { SelfMonitoringTarget } from "../core/selfmon/resolve.js";

/**
 * What the Next.js worker hands to the app code it loads: one store and settings per
 * thread. The app's server bundle is a separate module graph from this one, so the
 * hand-off goes through a global symbol.
 */
export interface TelltaleRuntime {
  ctx: Ctx;
  settings: Settings;
  selfMonitoring: SelfMonitoringTarget | null;
}

const KEY = Symbol.for("telltale.runtime");

export function setRuntime(runtime: TelltaleRuntime): void {
  (globalThis as Record<symbol, unknown>)[KEY] = runtime;
}

export function getRuntime(): TelltaleRuntime | undefined {
  return (globalThis as Record<symbol, unknown>)[KEY] as TelltaleRuntime | undefined;
}
