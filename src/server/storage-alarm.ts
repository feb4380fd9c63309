import { BroadcastChannel } from "node:worker_threads";
import { STORAGE_FULL_LOG_MS, StorageFullWatch, type StorageFullState } from "../core/ingest/storage-full";
import { log } from "./log";

/**
 * The full-disk condition crosses threads: ingest sees it on the main thread, the web UI (the
 * Next.js worker) shows it. A BroadcastChannel reaches every thread of the process, and needs
 * no write to the disk that is full. The watch sends its state when it changes and once per
 * log interval while it lasts, so a UI thread that starts later learns it within an interval.
 */
const CHANNEL = "telltale.storage-full";

let latest: StorageFullState | null = null;
let listening: BroadcastChannel | null = null;

/** The watch ingest reports to: logs through the server's log, publishes to every thread. */
export function storageFullWatch(intervalMs = STORAGE_FULL_LOG_MS): StorageFullWatch {
  const channel = new BroadcastChannel(CHANNEL);
  channel.unref();
  return new StorageFullWatch(
    (state) => {
      latest = state;
      channel.postMessage(state);
    },
    (level, message, fields) => log(level, message, fields),
    intervalMs,
  );
}

/** The newest state any thread published (null: writable, or nothing heard yet). */
export function storageFullState(): StorageFullState | null {
  if (!listening) {
    listening = new BroadcastChannel(CHANNEL);
    listening.unref();
    listening.onmessage = (message) => {
      latest = stateOf((message as { data?: unknown }).data);
    };
  }
  return latest;
}

function stateOf(data: unknown): StorageFullState | null {
  if (typeof data !== "object" || data === null) return null;
  const { since, lastAt, refused } = data as Record<string, unknown>;
  return typeof since === "number" && typeof lastAt === "number" && typeof refused === "number" ? { since, lastAt, refused } : null;
}
