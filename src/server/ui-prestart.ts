/**
 * The web UI's worker thread, started as the very first thing `serve` does: loading Next.js
 * and the app's server code takes the worker ~0.7 s, and the main thread needs ~0.4 s to load
 * its own modules, open the database and listen. Started first, the two overlap on two cores
 * instead of running one after the other. The worker waits for its `start` message (sent once
 * the ingest front listens, with the address it can reach it at) before it reads settings or
 * opens the database, so an invalid setting or a migration still fails the start as before.
 *
 * This module is bundled into both `dist/cli.js` (which starts the worker before it loads the
 * rest of the CLI) and `dist/cli-main.js` (whose `serve` takes it over): the hand-over goes
 * through a registered symbol on `globalThis`, which both copies see.
 */
import { tmpdir } from "node:os";
import { join } from "node:path";
import { Worker } from "node:worker_threads";
import { WORKER_LIMITS } from "./thread-memory";

/** What the worker is started with. */
export interface UiWorkerInput {
  socketPath: string;
  /** The app directory (where `.next` lives). */
  dir: string;
}

/** The message that lets the worker go on: the ingest front listens at `loopbackUrl`. */
export interface UiStartMessage {
  type: "start";
  loopbackUrl: string;
}

export function isUiStartMessage(message: unknown): message is UiStartMessage {
  return typeof message === "object" && message !== null && (message as { type?: unknown }).type === "start";
}

/** A worker started ahead of `serve`. */
export interface LaunchedUi {
  worker: Worker;
  input: UiWorkerInput;
  /** When it was started (ms since the epoch), for the "web UI ready" log line. */
  startedAt: number;
  /** Its exit code, once it has exited (it may, before `serve` listens to it). */
  exitCode: number | null;
}

/** A Unix socket path of this process's own for the worker's HTTP server. */
export function uiSocketPath(): string {
  return join(tmpdir(), `telltale-${process.pid}-${Math.random().toString(36).slice(2, 8)}.sock`);
}

/** Starts the worker; it loads its modules and then waits for a `start` message. */
export function launchUi(file: string | URL, dir: string): LaunchedUi {
  const input: UiWorkerInput = { socketPath: uiSocketPath(), dir };
  const launched: LaunchedUi = {
    worker: new Worker(file, { workerData: input, resourceLimits: WORKER_LIMITS }),
    input,
    startedAt: Date.now(),
    exitCode: null,
  };
  // Until `serve` attaches its own listeners, an error must not go unhandled (it would end the
  // process with a stack instead of the CLI's message); the exit is recorded for `serve` to see.
  launched.worker.on("error", () => {});
  launched.worker.once("exit", (code) => (launched.exitCode = code));
  return launched;
}

const PRESTARTED = Symbol.for("telltale.prestarted-ui");
const holder = globalThis as unknown as Record<symbol, LaunchedUi | undefined>;

/** Starts the worker for `serve` to take over (dist/cli.js, before it loads the CLI). */
export function prestartUi(file: string | URL, dir: string): void {
  holder[PRESTARTED] = launchUi(file, dir);
}

/** The worker started ahead for this app directory, if any; taken once. */
export function takePrestartedUi(dir: string): LaunchedUi | undefined {
  const launched = holder[PRESTARTED];
  holder[PRESTARTED] = undefined;
  if (launched && launched.input.dir !== dir) {
    void launched.worker.terminate();
    return undefined;
  }
  return launched;
}
