import type { Kysely } from "kysely";
import type { Dialect } from "../db/connect";
import type { DB } from "../db/schema";

/** What every core action receives besides its input: storage, the public URL and named limits. */
export interface Ctx {
  db: Kysely<DB>;
  dialect: Dialect;
  publicUrl: string;
  now: () => number;
  limits: {
    sessionDays: number;
    loginMaxFailures: number;
    loginWindowSeconds: number;
  };
}

export interface Action<I, O> {
  (args: { ctx: Ctx; input: I }): Promise<O>;
}
