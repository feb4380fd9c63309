import { readlinkSync } from "node:fs";
import { setPriority } from "node:os";

/** The nice value of the digest's threads: the request path (nice 0) is served first. */
export const DIGEST_NICE = 10;

/**
 * Lowers the calling thread's CPU priority (Linux: a thread's nice value is its own): when the
 * two cores are busy, SDKs are answered first and the digest uses what is left, catching up
 * once the load eases. Elsewhere, or when not permitted, the thread keeps equal priority.
 */
export function lowerThreadPriority(nice = DIGEST_NICE): void {
  try {
    const tid = Number(readlinkSync("/proc/thread-self").split("/").pop());
    if (Number.isInteger(tid) && tid > 0) setPriority(tid, nice);
  } catch {
    // No /proc/thread-self (not Linux) or not permitted: equal priority.
  }
}
