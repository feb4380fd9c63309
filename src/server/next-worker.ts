import { readFileSync, unlinkSync } from "node:fs";
import { join } from "node:path";
import { createServer } from "node:http";
import { parentPort, workerData } from "node:worker_threads";
import next from "next";
import { settings } from "../config/settings";
import { createCtx } from "../db/create-ctx";
import { resolveSelfMonitoring } from "../core/selfmon/resolve";
import { connect } from "../db/connect";
import { handleApi } from "./api/router";
import { sendJson } from "./http";
import { log, setLogLevel } from "./log";
import { createMailer } from "./mailer";
import { startAlertLoop } from "./alert-loop";
import { createWebhookClient } from "./webhook-client";
import { getRuntime, setRuntime } from "./app-handoff";
import { storageFullState } from "./storage-alarm";
import { registerBuildMaps } from "./own-maps";
import { TUNNEL_PATH } from "./tunnel";
import { isUiStartMessage, type UiStartMessage, type UiWorkerInput } from "./ui-prestart";

/**
 * The Next.js UI and the web API, in a worker thread. Self-monitoring (Sentry's
 * instrumentation, set up by `instrumentation.ts` during `prepare()`) lives in this
 * thread only, so the ingest path on the main thread never pays for it.
 */
const input = workerData as UiWorkerInput;
// Started ahead of the main thread's own start (ui-prestart.ts): modules are loaded by now;
// settings and the database wait until the main thread has migrated and listens.
const { loopbackUrl } = await new Promise<UiStartMessage>((resolve) => {
  const onMessage = (message: unknown) => {
    if (!isUiStartMessage(message)) return;
    parentPort?.off("message", onMessage);
    resolve(message);
  };
  parentPort?.on("message", onMessage);
});
const config = settings();
setLogLevel(config.logLevel);
// The digest worker checkpoints both files' WALs (src/server/digest-worker.ts), never a page view.
const store = connect(config.database, { checkpoints: false });
const ctx = {
  ...createCtx(config, store, createMailer(config)),
  webhooks: createWebhookClient({ allowPrivate: config.alerts.allowPrivateUrls }),
};
const selfMonitoring = await resolveSelfMonitoring(ctx, config.selfMonitoring, loopbackUrl, TUNNEL_PATH);
// Subscribes at once, so that the first report of a full disk after the start is heard.
storageFullState();
setRuntime({ ctx, settings: config, selfMonitoring, storageFull: storageFullState });

/**
 * Next.js reads the configuration the build resolved (`.next/required-server-files.json`) as
 * its standalone servers do, instead of loading and transpiling `next.config.ts` at every start
 * (~300 ms of the UI's start). The variable is this thread's own copy of the environment.
 */
function useBuiltConfig(dir: string): void {
  try {
    const built = JSON.parse(readFileSync(join(dir, ".next", "required-server-files.json"), "utf8")) as { config?: unknown };
    // eslint-disable-next-line no-restricted-properties -- Next.js's own switch, not a Telltale setting
    if (built.config) process.env.__NEXT_PRIVATE_STANDALONE_CONFIG = JSON.stringify(built.config);
  } catch {
    // No build manifest (an older build): Next.js loads next.config.ts itself.
  }
}

useBuiltConfig(input.dir);
const url = new URL(config.publicUrl);
const app = next({ dev: false, dir: input.dir, hostname: url.hostname, port: config.port });
const handle = app.getRequestHandler();
await app.prepare();

const server = createServer((req, res) => {
  const path = req.url ?? "/";
  const work = path.startsWith("/api/") ? handleApi(ctx, req, res) : handle(req, res);
  work.catch((error: unknown) => {
    getRuntime()?.monitor?.captureException(error);
    log("error", "request failed", { path, error: error instanceof Error ? error.message : String(error) });
    if (!res.headersSent) sendJson(res, 500, { detail: "internal error" });
    else res.destroy();
  });
});
try {
  unlinkSync(input.socketPath);
} catch {
  // no stale socket
}
server.listen(input.socketPath, () => {
  parentPort?.postMessage({ type: "ready", selfMonitoring: selfMonitoring?.internal ? "self" : selfMonitoring ? "dsn" : "off" });
  // The browser errors this build reports to the internal project resolve through its own maps
  // (docs/decisions/0015-own-source-maps.md); done once the UI answers, so it delays nothing.
  if (selfMonitoring?.internal) void registerBuildMaps(ctx, input.dir);
});
// Alert emails and webhooks leave from here, on a timer (decisions 0017, 0018).
const alertLoop = startAlertLoop(ctx);

parentPort?.on("message", (message: unknown) => {
  if (message === "shutdown") {
    server.close();
    void alertLoop
      .stop()
      .then(() => getRuntime()?.monitor?.flush(2000) ?? Promise.resolve(true))
      .then(() => store.close())
      .finally(() => process.exit(0));
  }
});
