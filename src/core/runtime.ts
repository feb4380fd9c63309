import type { Settings } from "../config/settings.js";
import type { Store } from "../db/connect.js";
import type { Ctx } from "./context.js";

/** The context core actions run in, from the process settings and an open store. */
export function createCtx(settings: Settings, store: Store): Ctx {
  return {
    db: store.db,
    dialect: store.dialect,
    publicUrl: settings.publicUrl,
    now: Date.now,
    limits: {
      sessionDays: settings.sessionDays,
      loginMaxFailures: settings.loginMaxFailures,
      loginWindowSeconds: settings.loginWindowSeconds,
    },
  };
}
