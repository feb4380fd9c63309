import { settings } from "@/src/config/settings";
import type { Ctx } from "@/src/core/context";
import { createCtx } from "@/src/db/create-ctx";
import { connect } from "@/src/db/connect";
import { getRuntime, setRuntime, type TelltaleRuntime } from "@/src/server/app-handoff";
import { createMailer } from "@/src/server/mailer";

/**
 * The runtime the server (src/server/next-worker.ts) set up for this thread. Running the
 * app without that server (e.g. `next dev`) opens a store of its own from the settings.
 */
export function runtime(): TelltaleRuntime {
  const existing = getRuntime();
  if (existing) return existing;
  const config = settings();
  const created: TelltaleRuntime = {
    ctx: createCtx(config, connect(config.database), createMailer(config)),
    settings: config,
    selfMonitoring: null,
  };
  setRuntime(created);
  return created;
}

export const ctx = (): Ctx => runtime().ctx;
