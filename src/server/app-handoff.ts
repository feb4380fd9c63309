import type { Settings } from "../config/settings";
import type { Ctx } from "../core/context";
import type { StorageFullState } from "../core/ingest/storage-full";
import type { SelfMonitoringTarget } from "../core/selfmon/resolve";

/**
 * What the Next.js worker hands to the app code it loads: one store and settings per
 * thread. The app's server bundle is a separate module graph from this one, so the
 * hand-off goes through a global symbol.
 */
export interface TelltaleRuntime {
  ctx: Ctx;
  settings: Settings;
  selfMonitoring: SelfMonitoringTarget | null;
  /** Whether ingest found storage full (src/server/storage-alarm.ts); absent where no server runs. */
  storageFull?: () => StorageFullState | null;
  /** Set by the app's server instrumentation once its SDK runs; the worker reports through it. */
  monitor?: Monitor;
}

export interface Monitor {
  captureException(error: unknown): void;
  flush(timeoutMs: number): Promise<boolean>;
}

const KEY = Symbol.for("telltale.runtime");

export function setRuntime(runtime: TelltaleRuntime): void {
  (globalThis as Record<symbol, unknown>)[KEY] = runtime;
}

export function getRuntime(): TelltaleRuntime | undefined {
  return (globalThis as Record<symbol, unknown>)[KEY] as TelltaleRuntime | undefined;
}
